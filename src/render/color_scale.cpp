#include "render/color_scale.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

namespace cumap::render {
namespace {

// Half the width of [lo, hi]. Halving each end first keeps it finite for any
// two finite doubles (1e308 - -1e308 would overflow).
double half_width(double lo, double hi) { return hi * 0.5 - lo * 0.5; }

// A width that can be divided by: positive, finite and not denormal (a
// denormal divisor turns ordinary differences into infinities).
bool usable_width(double half) { return std::isnormal(half) && half > 0; }

// The median (the mean of the middle two for an even count); reorders `values`.
double median_of(std::vector<double>& values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  const double below = *std::max_element(values.begin(), middle);
  return below * 0.5 + *middle * 0.5;
}

}  // namespace

double ColorScale::fraction(double v) const {
  if (std::isnan(v)) return v;
  const double half = half_width(min, max);
  if (!usable_width(half)) return 0.5;
  return (v * 0.5 - min * 0.5) / half;
}

ColorScale choose_color_scale(const std::vector<std::span<const double>>& value_sets,
                              const std::optional<std::pair<double, double>>& fixed) {
  if (fixed) return {fixed->first, fixed->second};
  std::vector<double> finite;
  for (const auto& values : value_sets)
    for (double v : values)
      if (std::isfinite(v)) finite.push_back(v);
  if (finite.empty()) return {0.0, 1.0};  // nothing measured: any range will do
  const auto [lo_it, hi_it] = std::minmax_element(finite.begin(), finite.end());
  const double lo = *lo_it, hi = *hi_it;
  const double median = median_of(finite);
  // Narrow: kMinRelativeSpan of the median, centred on it, grown to hold every value.
  const double min_half = median * (kMinRelativeSpan / 2);
  if (median > 0 && usable_width(min_half) && half_width(lo, hi) < min_half) {
    const ColorScale widened{std::min(lo, median - min_half), std::max(hi, median + min_half)};
    // Near the largest double the widened range would overflow: as below.
    if (std::isfinite(widened.min) && std::isfinite(widened.max)) return widened;
  }
  if (!usable_width(half_width(lo, hi))) {
    // One value everywhere (or values a denormal apart): centre them so that
    // they get the middle color, in a range wide enough to draw ticks on.
    const double centre = lo * 0.5 + hi * 0.5;
    const double pad = std::max(0.5, std::abs(centre) * 0.05);
    const ColorScale widened{centre - pad, centre + pad};
    // Near the largest double the widened range would overflow: stay flat.
    if (std::isfinite(widened.min) && std::isfinite(widened.max) && widened.min < widened.max) return widened;
  }
  return {lo, hi};
}

ColorScale choose_color_scale(const std::vector<HeatmapPanel>& panels,
                              const std::optional<std::pair<double, double>>& fixed) {
  std::vector<std::span<const double>> value_sets;
  for (const auto& panel : panels) value_sets.emplace_back(panel.matrix.values);
  return choose_color_scale(value_sets, fixed);
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
  const double half = half_width(min, max);
  if (!usable_width(half)) return {min, max};
  // Walk the 1-2-5 sequence around range/6 and keep the step whose tick count
  // is closest to 5..7; on a tie the finer step, since more ticks read better
  // than too few.
  const double base = std::pow(10.0, std::floor(std::log10(half / 3.0)) - 1);
  double best_step = 0.0;
  int best_badness = std::numeric_limits<int>::max();
  for (double decade = base; decade < base * 1e3 && std::isfinite(decade); decade *= 10)
    for (double mantissa : {1.0, 2.0, 5.0}) {
      const double step = decade * mantissa;
      if (!usable_width(step)) continue;  // past the largest double, or denormal
      const int b = badness(count_ticks(min, max, step));
      if (b < best_badness) {
        best_badness = b;
        best_step = step;
      }
    }
  // Tick indices must fit a long long; steps that small against the values
  // exist only for ranges at the edge of double precision.
  constexpr double kLargestIndex = 1e15;
  if (best_step == 0.0 || std::abs(min / best_step) > kLargestIndex || std::abs(max / best_step) > kLargestIndex)
    return {min, max};
  std::vector<double> ticks;
  const auto first = static_cast<long long>(std::ceil(min / best_step - 1e-9));
  const auto last = static_cast<long long>(std::floor(max / best_step + 1e-9));
  for (long long k = first; k <= last; ++k) ticks.push_back(static_cast<double>(k) * best_step);
  // Near the smallest normal doubles no usable step may fall inside the
  // range: label its ends then.
  if (ticks.empty()) return {min, max};
  return ticks;
}

std::vector<std::string> format_ticks(const std::vector<double>& ticks) {
  // Digits after the point: just enough for the step; significant digits:
  // enough to tell the largest tick from its neighbour.
  double step = 0.0;
  if (ticks.size() >= 2) step = 2 * half_width(ticks[0], ticks[1]);
  double largest = 0.0;
  for (double t : ticks) largest = std::max(largest, std::abs(t));
  const int step_exponent =
      usable_width(step) && std::isfinite(step) ? static_cast<int>(std::floor(std::log10(step) + 1e-9)) : 0;
  const int largest_exponent =
      largest > 0 && std::isfinite(largest) ? static_cast<int>(std::floor(std::log10(largest))) : 0;
  // A step of 2.5 needs one decimal more than its exponent says: "0, 2, 5,
  // 8" would label ticks 0, 2.5, 5, 7.5.
  int decimals = std::max(0, -step_exponent);
  if (usable_width(step) && std::isfinite(step))
    while (decimals < 6) {
      const double scaled = step * std::pow(10.0, decimals);
      if (std::abs(scaled - std::round(scaled)) <= 1e-6 * scaled) break;
      ++decimals;
    }
  // Fixed notation while it stays short (latencies: "200", "0.25");
  // exponent notation for values no one's latency has (1e308, 5e-324).
  const bool fixed = largest_exponent < 9 && decimals <= 6;
  const int significant = ticks.size() < 2 ? 4 : std::clamp(largest_exponent - step_exponent + 1, 1, 17);
  std::vector<std::string> labels;
  for (double t : ticks) {
    const double shown = fixed && std::abs(t) < 1e-12 ? 0.0 : t;  // no "-0"
    labels.push_back(fixed ? fmt::format("{:.{}f}", shown, decimals) : fmt::format("{:.{}g}", shown, significant));
  }
  return labels;
}

}  // namespace cumap::render
