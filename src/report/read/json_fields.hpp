#pragma once
// Reading a JSON file that cumap wrote (meta.json, topology.json), perhaps
// an older cumap's: a key that is missing or holds another type reads as
// nothing (or `otherwise`), so a summary of an older file shows what it has
// rather than failing. Every reader of cumap's own JSON reads through these:
// the summaries read back (summary_json.hpp) and `cumap render --order`
// (order_file.hpp).
#include <cmath>
#include <optional>
#include <string>

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

template <typename T>
T whole(const nlohmann::json& j, const char* key, T otherwise) {
  const nlohmann::json& v = member(j, key);
  return v.is_number() ? v.get<T>() : otherwise;
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

}  // namespace cumap::json_fields
