#pragma once
// Reading a meta.json that cumap wrote, perhaps an older cumap: a key that
// is missing or holds another type reads as nothing (or `otherwise`), so a
// summary of an older file shows what it has rather than failing.
// `cumap summary` of a map (run_summary) and of barrier and contention
// (sync_summary), and `cumap render --order` (render_file), read through these.
#include <string>

#include <nlohmann/json.hpp>

namespace cumap::meta_fields {

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

}  // namespace cumap::meta_fields
