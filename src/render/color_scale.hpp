#pragma once
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cumap/render.hpp"

namespace cumap::render {

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
// (one set per panel or table). A flat or empty range is widened so that
// fraction() stays finite where that is possible without overflow;
// otherwise it stays flat (see fraction).
ColorScale choose_color_scale(const std::vector<std::span<const double>>& value_sets,
                              const std::optional<std::pair<double, double>>& fixed);
// The same over the cells of every panel.
ColorScale choose_color_scale(const std::vector<HeatmapPanel>& panels,
                              const std::optional<std::pair<double, double>>& fixed);

// 5 to 7 round tick values inside [min, max] where possible, spaced by
// 1, 2 or 5 times a power of ten.
std::vector<double> nice_ticks(double min, double max);
// Tick labels with just enough decimals for the tick spacing.
std::vector<std::string> format_ticks(const std::vector<double>& ticks);

}  // namespace cumap::render
