#pragma once
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "render/render.hpp"

namespace cumap::render {

// The narrowest automatic color range, as a share of the median value.
// One of the ~15 colors an eye tells apart along the bar is then at least
// 0.7 % of the median, about what two sets of flag lines differ by on an
// H100 (meta.json: line_sets_agreement.median_rel_diff 0.007): a narrower
// range would paint measurement noise as structure (a CPU's 4.80-4.96 ns
// over the whole colormap). Ranges wider than this keep their full contrast.
inline constexpr double kMinRelativeSpan = 0.10;

// The value range mapped onto the colormap, shared by all panels.
struct ColorScale {
  double min = 0.0;
  double max = 1.0;
  // Position of v in the range: 0 at min, 1 at max, outside [0,1] beyond
  // them (the colormap clamps); NaN stays NaN. Never divides by zero or
  // overflows, whatever the range (-1e308..1e308 included): a range whose
  // width is zero or denormal is flat and puts every number at 0.5.
  double fraction(double v) const;
};

// The fixed range if given, else min..max of the finite values of all sets
// (one set per panel or table), widened where it is narrow: a range less
// than kMinRelativeSpan of the median (positive values) becomes that wide
// around the median, so that a few percent never fill the whole colormap.
// A flat or empty range is widened so that fraction() stays finite where
// that is possible without overflow; otherwise it stays flat (see fraction).
ColorScale choose_color_scale(const std::vector<std::span<const double>>& value_sets,
                              const std::optional<std::pair<double, double>>& fixed);
// The same over the cells of every panel.
ColorScale choose_color_scale(const std::vector<HeatmapPanel>& panels,
                              const std::optional<std::pair<double, double>>& fixed);

// 5 to 7 round tick values inside [min, max] where possible, spaced by
// 1, 2 or 5 times a power of ten.
std::vector<double> nice_ticks(double min, double max);
// Tick labels with just enough decimals for the tick spacing (2.5: one).
std::vector<std::string> format_ticks(const std::vector<double>& ticks);

}  // namespace cumap::render
