#pragma once
// Reading a JSON file that cumap wrote (meta.json, topology.json), perhaps
// an older cumap's: a key that is missing or holds another type reads as
// nothing (or `otherwise`), so a summary of an older file shows what it has
// rather than failing. Every reader of cumap's own JSON reads through these:
// the summaries read back (summary_json.hpp) and `cumap render --order`
// (order_file.hpp).
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/values.hpp"

namespace cumap::json_fields {

inline const nlohmann::json& member(const nlohmann::json& j, const char* key) {
  static const nlohmann::json none;
  return j.is_object() && j.contains(key) ? j[key] : none;
}

inline std::string text(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = member(j, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

inline bool boolean(const nlohmann::json& j, const char* key, bool otherwise) {
  const nlohmann::json& v = member(j, key);
  return v.is_boolean() ? v.get<bool>() : otherwise;
}

// `v` as an integer of type T, or none: a number that is not whole or is
// out of T's range (1e300, -1 for a count) is none, never converted (a
// conversion out of range is undefined behaviour).
template <typename T>
std::optional<T> exact(const nlohmann::json& v) {
  static_assert(std::numeric_limits<T>::is_integer);
  using Limits = std::numeric_limits<T>;
  if (v.is_number_unsigned()) {
    const std::uint64_t x = v.get<std::uint64_t>();
    if (x <= static_cast<std::uint64_t>(Limits::max())) return static_cast<T>(x);
  } else if (v.is_number_integer()) {
    const std::int64_t x = v.get<std::int64_t>();
    if (x >= 0 ? static_cast<std::uint64_t>(x) <= static_cast<std::uint64_t>(Limits::max())
               : Limits::is_signed && x >= static_cast<std::int64_t>(Limits::min()))
      return static_cast<T>(x);
  } else if (v.is_number_float()) {
    // 2^digits is exactly a double: T holds [-2^digits, 2^digits) signed, [0, 2^digits) unsigned.
    const double x = v.get<double>(), bound = std::ldexp(1.0, Limits::digits);
    if (std::isfinite(x) && x == std::trunc(x) && x >= (Limits::is_signed ? -bound : 0.0) && x < bound)
      return static_cast<T>(x);
  }
  return std::nullopt;
}

template <typename T>
T whole(const nlohmann::json& j, const char* key, T otherwise) {
  return exact<T>(member(j, key)).value_or(otherwise);
}

// A finite number, or none (null: a value that did not exist).
inline std::optional<double> number(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = member(j, key);
  if (!v.is_number()) return std::nullopt;
  const double x = v.get<double>();
  return std::isfinite(x) ? std::optional<double>(x) : std::nullopt;
}
// The same as the result holds it: NaN for none.
inline double number_or_nan(const nlohmann::json& j, const char* key) { return number(j, key).value_or(kNaN); }

// A list's whole numbers, or its strings; an entry of another type is passed over.
inline std::vector<int> ints(const nlohmann::json& list) {
  std::vector<int> out;
  if (list.is_array())
    for (const nlohmann::json& v : list)
      if (const std::optional<int> x = exact<int>(v)) out.push_back(*x);
  return out;
}
inline std::vector<std::string> texts(const nlohmann::json& list) {
  std::vector<std::string> out;
  if (list.is_array())
    for (const nlohmann::json& v : list)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

}  // namespace cumap::json_fields
