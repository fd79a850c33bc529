#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cumap/render.hpp"

namespace cumap::render {

// The value range mapped onto the colormap, shared by all panels.
struct ColorScale {
  double min = 0.0;
  double max = 1.0;
  // Position of v in [0,1] (clamped by the colormap); NaN stays NaN.
  double fraction(double v) const { return (v - min) / (max - min); }
};

// The fixed range if given, else min..max of the finite cells of all panels.
// A flat or empty range is widened so that fraction() stays finite.
ColorScale choose_color_scale(const std::vector<HeatmapPanel>& panels,
                              const std::optional<std::pair<double, double>>& fixed);

// 5 to 7 round tick values inside [min, max] where possible, spaced by
// 1, 2 or 5 times a power of ten.
std::vector<double> nice_ticks(double min, double max);
// Tick labels with just enough decimals for the tick spacing.
std::vector<std::string> format_ticks(const std::vector<double>& ticks);

}  // namespace cumap::render
