#pragma once
// Which command wrote an output set: meta.json's "kind", written by each
// command's meta.json (report/meta_json.hpp) and read back before a run
// replaces a set (publish/output_set.hpp): a run replaces a set of its own
// kind, never one of another kind unless told to (--replace).
#include <string_view>

#include "core/enum_names.hpp"

namespace cumap {

enum class OutputKind { Map, Homes, Barrier, Contention };

template <>
inline constexpr auto kEnumNames<OutputKind> = enum_names<OutputKind>("output set kind", {
    {OutputKind::Map, "map"}, {OutputKind::Homes, "homes"}, {OutputKind::Barrier, "barrier"},
    {OutputKind::Contention, "contention"}});

inline std::string_view to_string(OutputKind kind) { return names_of<OutputKind>().name(kind); }

}  // namespace cumap
