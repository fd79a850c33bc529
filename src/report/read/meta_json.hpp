#pragma once
// A run's meta.json read from disk: what `cumap summary` starts from, for a
// map or another command's output set. The summaries in it are read by
// report/summary_json.hpp.
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/output_kind.hpp"

namespace cumap {

// DIR/meta.json (or that file itself when `path` names a file), read and
// parsed through the checked reader (checked_file.hpp). UsageError, one
// line, for a path that does not exist, a directory without meta.json, and
// a file the checked reader refuses (not a regular file, too large, not
// JSON, nested too deep).
struct OutputMeta {
  std::filesystem::path file;  // the meta.json read
  nlohmann::json meta;
};
OutputMeta read_output_meta(const std::filesystem::path& path);

// Whether `meta` is cumap's: "tool": "cumap".
bool is_cumap_meta(const nlohmann::json& meta);
// The command that wrote the set `meta` describes: its "kind"; for a set of
// an earlier cumap, which wrote none, the keys only that command wrote
// ("command": "barrier" or "contention", a map's "maps", `cumap homes`'
// "homes" without maps), as `cumap summary` tells them apart. None when
// neither says.
std::optional<OutputKind> output_kind_of(const nlohmann::json& meta);

}  // namespace cumap
