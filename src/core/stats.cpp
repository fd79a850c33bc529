// Order statistics and correlation of latency samples.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "cumap/backend.hpp"
#include "core/stats.hpp"

namespace cumap {

double percentile(std::span<const double> sorted, double q) {
  if (sorted.empty()) return kNaN;
  q = std::clamp(q, 0.0, 1.0);
  // numpy's "linear" method: position q*(n-1) between the closest ranks.
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

double mean(std::span<const double> values) {
  if (values.empty()) return kNaN;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

namespace {

// percentile() of `values` without sorting them all: the two ranks it reads
// are selected (nth_element partially reorders `values`). A map's summary
// covers ~280 000 values; sorting them made meta.json the slowest output.
double selected_percentile(std::vector<double>& values, double q) {
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(lo), values.end());
  const double at_lo = values[lo];
  const double frac = pos - static_cast<double>(lo);
  if (lo + 1 >= values.size() || frac == 0.0) return at_lo;
  // Everything after rank lo is at least as large: rank lo + 1 is their minimum.
  const double at_hi = *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(lo) + 1, values.end());
  return at_lo + (at_hi - at_lo) * frac;
}

}  // namespace

Summary summarize(std::span<const double> samples) {
  std::vector<double> values;
  values.reserve(samples.size());
  for (double v : samples)
    if (!std::isnan(v)) values.push_back(v);
  if (values.empty()) return Summary{kNaN, kNaN, kNaN, kNaN, kNaN, 0};
  const auto [min, max] = std::minmax_element(values.begin(), values.end());
  Summary s{kNaN, kNaN, kNaN, *min, *max, static_cast<int>(values.size())};
  s.median = selected_percentile(values, 0.5);
  s.p05 = selected_percentile(values, 0.05);
  s.p95 = selected_percentile(values, 0.95);
  return s;
}

double median(std::vector<double> values) {
  std::erase_if(values, [](double v) { return std::isnan(v); });
  return values.empty() ? kNaN : selected_percentile(values, 0.5);
}

double pearson(std::span<const double> x, std::span<const double> y) {
  const std::size_t n = std::min(x.size(), y.size());
  double sx = 0, sy = 0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isfinite(x[i]) && std::isfinite(y[i])) {
      sx += x[i];
      sy += y[i];
      ++count;
    }
  }
  if (count < 2) return kNaN;
  const double mx = sx / static_cast<double>(count);
  const double my = sy / static_cast<double>(count);
  // Centred sums: the naive sum-of-products form loses precision when the
  // values are large and close together, as latencies are.
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isfinite(x[i]) && std::isfinite(y[i])) {
      const double dx = x[i] - mx, dy = y[i] - my;
      sxy += dx * dy;
      sxx += dx * dx;
      syy += dy * dy;
    }
  }
  if (sxx == 0.0 || syy == 0.0) return kNaN;
  return sxy / std::sqrt(sxx * syy);
}

}  // namespace cumap
