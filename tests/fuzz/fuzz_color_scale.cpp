// libFuzzer: the heatmap colour scale for any doubles, huge and denormal
// ones included: fractions of finite cells are never NaN, ticks are few and
// finite, labels short. UBSan (float-cast-overflow, float-divide-by-zero)
// reports every overflowing conversion or division on the way.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>

#include "render/color_scale.hpp"

namespace {

double take_double(const std::uint8_t*& data, std::size_t& size) {
  double v = 0.0;
  if (size >= sizeof v) {
    std::memcpy(&v, data, sizeof v);
    data += sizeof v;
    size -= sizeof v;
  }
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const bool fixed = (data[0] & 1) != 0;
  ++data, --size;
  cumap::ValueMatrix m = cumap::ValueMatrix::filled({0, 1, 2}, cumap::kNaN);
  for (double& v : m.values) v = take_double(data, size);
  std::optional<std::pair<double, double>> range;
  if (fixed) {
    const double lo = take_double(data, size), hi = take_double(data, size);
    if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi)) return 0;  // parse_scale_spec rejects these
    range = std::pair{lo, hi};
  }
  const cumap::render::ColorScale scale = cumap::render::choose_color_scale({cumap::HeatmapPanel{"", m}}, range);
  // Inside the range a fraction is in [0,1]; far outside a tiny fixed range
  // it may be infinite (the colormap clamps it), but never NaN.
  for (double v : m.values) {
    if (!std::isfinite(v)) continue;
    const double t = scale.fraction(v);
    if (std::isnan(t)) __builtin_trap();
    if (v >= scale.min && v <= scale.max && !(t >= 0.0 && t <= 1.0)) __builtin_trap();
  }
  const auto ticks = cumap::render::nice_ticks(scale.min, scale.max);
  if (ticks.empty() || ticks.size() > 20) __builtin_trap();
  for (const auto& label : cumap::render::format_ticks(ticks))
    if (label.size() > 40) __builtin_trap();
  return 0;
}
