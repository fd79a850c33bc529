#include "render/color_scale.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace cumap::render {

ColorScale choose_color_scale(const std::vector<HeatmapPanel>& panels,
                              const std::optional<std::pair<double, double>>& fixed) {
  if (fixed) return {fixed->first, fixed->second};
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (const auto& panel : panels)
    for (double v : panel.matrix.values)
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  if (lo > hi) return {0.0, 1.0};  // nothing measured: any range will do
  if (lo == hi) {
    // One value everywhere: centre it so that it gets the middle color.
    const double pad = std::max(0.5, std::abs(lo) * 0.05);
    return {lo - pad, hi + pad};
  }
  return {lo, hi};
}

namespace {

int count_ticks(double min, double max, double step) {
  return static_cast<int>(std::floor(max / step + 1e-9) - std::ceil(min / step - 1e-9)) + 1;
}

// How far a tick count is from the wanted 5..7.
int badness(int count) { return count < 5 ? 5 - count : count > 7 ? count - 7 : 0; }

}  // namespace

std::vector<double> nice_ticks(double min, double max) {
  if (!(max > min) || !std::isfinite(min) || !std::isfinite(max)) return {min};
  // Walk the 1-2-5 sequence around range/6 and keep the step whose tick count
  // is closest to 5..7; on a tie the finer step, since more ticks read better
  // than too few.
  const double base = std::pow(10.0, std::floor(std::log10((max - min) / 6.0)) - 1);
  double best_step = 0.0;
  int best_badness = std::numeric_limits<int>::max();
  for (double decade = base; decade < base * 1e3; decade *= 10)
    for (double mantissa : {1.0, 2.0, 5.0}) {
      const double step = decade * mantissa;
      const int b = badness(count_ticks(min, max, step));
      if (b < best_badness) {
        best_badness = b;
        best_step = step;
      }
    }
  std::vector<double> ticks;
  const auto first = static_cast<long long>(std::ceil(min / best_step - 1e-9));
  const auto last = static_cast<long long>(std::floor(max / best_step + 1e-9));
  for (long long k = first; k <= last; ++k) ticks.push_back(static_cast<double>(k) * best_step);
  return ticks;
}

std::vector<std::string> format_ticks(const std::vector<double>& ticks) {
  int decimals = 0;
  if (ticks.size() >= 2) {
    const double step = ticks[1] - ticks[0];
    decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  }
  std::vector<std::string> labels;
  for (double t : ticks) {
    const double shown = std::abs(t) < 1e-12 ? 0.0 : t;  // no "-0"
    labels.push_back(fmt::format("{:.{}f}", shown, decimals));
  }
  return labels;
}

}  // namespace cumap::render
