#pragma once
// A number for meta.json and the summaries' JSON: JSON has no NaN, so a
// value that does not exist (NaN, infinite, or absent) is null.
#include <cmath>
#include <optional>

#include <nlohmann/json.hpp>

namespace cumap {

inline nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }
inline nlohmann::json number_or_null(const std::optional<double>& v) {
  return v ? number_or_null(*v) : nlohmann::json();
}

}  // namespace cumap
