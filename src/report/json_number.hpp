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

// Two sets of values compared (line sets, a map against its serial check).
template <class AgreementT>
nlohmann::json agreement_json(const AgreementT& a) {
  return {{"n", a.n}, {"pearson_r", number_or_null(a.pearson_r)}, {"median_rel_diff", number_or_null(a.median_rel_diff)}};
}

}  // namespace cumap
