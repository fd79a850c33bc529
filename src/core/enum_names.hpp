#pragma once
// The words that name an enum's values, one table per enum: its to_string,
// the parse from a word and the command line's allowed words all read it,
// so a value and its name are written down once.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cumap {

// A row of the plainest table: a value and its name. A table may carry more
// per value (BackendKind's facts) in rows of its own type with these two.
template <typename Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

// "unknown backend \"x\" (known: auto, cpu, cuda, hip)".
[[noreturn]] void throw_unknown_name(std::string_view what, std::string_view word,
                                     const std::vector<std::string_view>& known);
// "cu or wgp", "auto, cpu, cuda or hip": the names as a sentence says them.
std::string said_as_choices(const std::vector<std::string_view>& names);

// Every value of an enum with its name, in the order messages list them.
template <typename Row, std::size_t N>
struct NameTable {
  using Enum = decltype(Row::value);

  std::string_view what;  // what a value is, for messages: "backend", "participant set"
  std::array<Row, N> rows;

  constexpr const Row& row(Enum value) const {
    for (const Row& r : rows)
      if (r.value == value) return r;
    return rows[0];  // unreachable while every value has a row (the tests check each)
  }
  constexpr std::string_view name(Enum value) const { return row(value).name; }
  constexpr const Row* find(std::string_view name) const {
    for (const Row& r : rows)
      if (r.name == name) return &r;
    return nullptr;
  }
  // The value a word names; UsageError naming the choices for any other word.
  Enum parse(std::string_view word) const {
    if (const Row* r = find(word)) return r->value;
    throw_unknown_name(what, word, names());
  }
  std::vector<std::string_view> names() const {
    std::vector<std::string_view> out;
    for (const Row& r : rows) out.push_back(r.name);
    return out;
  }
  std::vector<Enum> values() const {
    std::vector<Enum> out;
    for (const Row& r : rows) out.push_back(r.value);
    return out;
  }
};

// A table of plain rows, its size counted from them (a size written by hand
// and one row short would leave a row of value 0 named ""):
// enum_names<Path>("path", {{Path::Global, "global"}, {Path::Dsm, "dsm"}}).
template <typename Enum, std::size_t N>
constexpr NameTable<EnumName<Enum>, N> enum_names(std::string_view what, const EnumName<Enum> (&rows)[N]) {
  return {what, std::to_array(rows)};
}

// The table of `Enum`, found by its type: each enum specializes it next to
// its enum (core/options.hpp, core/sync_options.hpp, core/output_kind.hpp):
// `template <> inline constexpr auto kEnumNames<E> = enum_names<E>(...)`, or
// a NameTable of richer rows (BackendKind's). An enum without one has none.
template <typename Enum>
inline constexpr std::nullptr_t kEnumNames = nullptr;

template <typename Enum>
constexpr const auto& names_of() {
  static_assert(!std::is_same_v<std::remove_cvref_t<decltype(kEnumNames<Enum>)>, std::nullptr_t>,
                "this enum has no table of names (kEnumNames)");
  return kEnumNames<Enum>;
}

}  // namespace cumap
