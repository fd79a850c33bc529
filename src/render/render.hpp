#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cumap/values.hpp"
#include "cumap/topology.hpp"

namespace cumap {

struct Rgb {
  std::uint8_t r, g, b;
  bool operator==(const Rgb&) const = default;
};

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  // row-major, 3 bytes a pixel
  Rgb pixel(int x, int y) const;
};

// Perceptually uniform colormaps: "viridis", "magma", "cividis".
// Throws UsageError for other names. t is clamped to [0,1].
Rgb colormap(const std::string& name, double t);
// The gray of the diagonal and of missing or timed-out cells; in no colormap.
inline constexpr Rgb kMissingGray{128, 128, 128};
// A timed-out cell: +infinity among a panel's values (a matrix CSV writes it
// empty, like a value that does not exist). The dark gray of report.html.
inline constexpr Rgb kTimedOutGray{77, 77, 77};

struct HeatmapPanel {
  std::string title;    // e.g. "same-line"
  ValueMatrix matrix;   // already in display order
};

struct HeatmapStyle {
  std::string title;                                // first line of the picture
  std::string colormap = "viridis";
  // Fixed color range; else the finite cells' range, widened when narrow
  // (choose_color_scale in render/color_scale.hpp).
  std::optional<std::pair<double, double>> scale;
  std::optional<Topology> groups;                   // maps: separators and names, in display order
  std::string value_label = "one-way latency (ns)";  // the colorbar's caption: what the values are
  // What the rows and the columns are, e.g. "SM a (by side, then group)",
  // beside and below every panel that has labels; empty: no axis titles.
  std::string row_title;
  std::string column_title;
  int panels_per_row = 0;  // panels wrap into rows of this many; 0: all side by side
};

// Opens the font heatmaps are drawn with ($CUMAP_FONT, else the one this
// cumap was built with) and throws UsageError saying why it cannot be used.
// Commands that measure call it first: a bad font found only when the
// pictures are drawn would throw the measurement away.
void check_heatmap_font();

// Draws the panels side by side (in rows of style.panels_per_row) on one
// shared color scale, with unit and group labels, axis titles, a colorbar,
// group separators and a legend for the gray cells. Throws UsageError if
// the font is missing.
Image render_heatmap(const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style);

// A run of consecutive rows (or columns) that belong together: a separator
// is drawn before it and its name beside it. Positions are display positions.
struct AxisGroup {
  int begin = 0;
  int end = 0;       // one past the last
  std::string name;  // empty: a run no group names (separated, not labelled)
};
// The runs of `units` (in display order) that fall in one group of `topology`.
std::vector<AxisGroup> axis_groups(const std::vector<int>& units, const Topology& topology);

struct HeatmapAxis {
  std::vector<std::string> labels;  // one per row (column), in display order
  std::vector<AxisGroup> groups;    // empty, or consecutive runs covering every row (column)
};

// A rows x columns table whose two axes are different things (home
// discovery: units x flag lines). Unlike a map it has no diagonal: every
// finite cell is drawn in its color, NaN cells gray.
struct HeatmapTable {
  std::string title;  // above the cells, like a panel's
  HeatmapAxis rows;
  HeatmapAxis columns;
  std::vector<double> values;  // row-major, rows x columns
};

// Draws one table the way render_heatmap draws a panel: the same colorbar,
// labels and separators, but rows and columns each with their own labels,
// groups and cell size. style.groups is not used (the axes carry the groups).
// Throws UsageError on a table whose values do not match its labels.
Image render_table_heatmap(const HeatmapTable& table, const HeatmapStyle& style);

// A quantity against a count (what a barrier costs as k grows): panels
// side by side (in rows of panels_per_row), each a plot area with its own
// title, one line per series through markers at its points, whiskers where
// a series has a range, and one legend for every panel. The y axis starts
// at 0 and is shared by the panels, so that they compare at a glance.
struct PlotSeries {
  std::string label;                  // the legend's entry; series of one label share it
  std::vector<double> x;              // ascending
  std::vector<double> y;              // NaN: no point there (the line breaks)
  std::vector<double> y_low, y_high;  // empty, or a whisker per point (p05 to p95)
  int color = 0;                      // index into the palette: one colour per implementation
  int dash = 0;                       // 0 solid, 1 dashed, 2 dotted; each with its own marker
};
struct PlotPanel {
  std::string title;
  std::vector<PlotSeries> series;
};
struct LinePlotStyle {
  std::string title;
  std::string x_title;
  std::string y_title;
  bool log_x = false;  // a doubling sweep (2, 4, 8, ...) reads evenly on a log scale
  int panels_per_row = 2;
  std::vector<std::string> notes;  // lines under the panels, e.g. which points are missing and why
};
// Throws UsageError when there is nothing to draw or the font is missing.
Image render_line_plot(const std::vector<PlotPanel>& panels, const LinePlotStyle& style);

// 8-bit RGB PNG, in memory: writers place the file themselves
// (OutputDirectory::write, write_png).
std::string encode_png(const Image& image);

}  // namespace cumap
