// Order statistics and correlation of latency samples.
#include <algorithm>
#include <cmath>
#include <vector>

#include "cumap/backend.hpp"
#include "cumap/stats.hpp"

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

Summary summarize(std::span<const double> samples) {
  std::vector<double> sorted;
  sorted.reserve(samples.size());
  for (double v : samples)
    if (!std::isnan(v)) sorted.push_back(v);
  if (sorted.empty()) return Summary{kNaN, kNaN, kNaN, kNaN, kNaN, 0};
  std::sort(sorted.begin(), sorted.end());
  return Summary{percentile(sorted, 0.5), percentile(sorted, 0.05), percentile(sorted, 0.95),
                 sorted.front(),          sorted.back(),            static_cast<int>(sorted.size())};
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
