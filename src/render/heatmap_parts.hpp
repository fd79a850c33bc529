#pragma once
#include <cmath>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "render/render.hpp"
#include "render/color_scale.hpp"
#include "render/font.hpp"
#include "render/heatmap_layout.hpp"

// The pieces of render_heatmap: heatmap.cpp lays the picture out,
// heatmap_cells.cpp draws inside the panels and heatmap_axes.cpp around them.
namespace cumap::render {

// Pixel sizes of the fonts, chosen for a figure printed at column width.
inline constexpr int kTitlePx = 18;
inline constexpr int kPanelTitlePx = 15;
inline constexpr int kUnitLabelPx = 11;
inline constexpr int kGroupLabelPx = 12;
inline constexpr int kTickLabelPx = 12;
inline constexpr int kValueLabelPx = 13;
inline constexpr int kAxisTitlePx = 13;
inline constexpr int kLegendPx = 12;
inline constexpr int kLegendSwatchGap = 6;  // between the legend's gray square and its words

inline constexpr Rgb kSeparator{255, 255, 255};

// One panel as the drawing code sees it, whatever it came from: a map (a
// square grid whose rows and columns are the same units) or a table (units x
// flag lines). The values stay with the caller's panel or table.
struct Grid {
  std::string title;
  HeatmapAxis rows;
  HeatmapAxis columns;
  std::span<const double> values;  // row-major, rows x columns
  // A map's diagonal, a unit with itself, is no measurement: always gray.
  bool gray_diagonal = false;

  std::size_t row_count() const { return rows.labels.size(); }
  std::size_t column_count() const { return columns.labels.size(); }
  double at(std::size_t r, std::size_t c) const { return values[r * column_count() + c]; }
  // Whether the cell shows a measurement (colored, and its value printable).
  bool measured(std::size_t r, std::size_t c) const { return !(gray_diagonal && r == c) && std::isfinite(at(r, c)); }
};

// heatmap.cpp: the grids of a map's panels (rows and columns labelled with the
// unit ids, grouped by style.groups) and of a table. They refer to the values
// of `panels` / `table`, which must outlive them.
std::vector<Grid> map_grids(const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style);
Grid table_grid(const HeatmapTable& table);
// The layout the picture of `grids` will have (text measured with `font`).
HeatmapLayout plan_grids(Font& font, const std::vector<Grid>& grids, const HeatmapStyle& style);
// The layouts render_heatmap and render_table_heatmap use (inputs checked as they check them).
HeatmapLayout plan_heatmap(Font& font, const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style);
HeatmapLayout plan_table_heatmap(Font& font, const HeatmapTable& table, const HeatmapStyle& style);

// heatmap_cells.cpp: the cells' colors, the group separators, and values
// printed inside cells large enough to hold them (layout.cell_value_px > 0),
// so that tiny maps can be read exactly.
void draw_cells(Image& image, const HeatmapLayout& layout, std::size_t panel, const Grid& grid,
                const ColorScale& scale, const std::string& colormap_name);
// A white line before every group but the first, across the panel: vertical
// for the column groups, horizontal for the row groups.
void draw_group_separators(Image& image, const HeatmapLayout& layout, std::size_t panel, const Grid& grid);

// Decimals that fit every value of every panel into a cell (the same for all,
// so the numbers line up), or nullopt when no values should be printed.
std::optional<int> cell_value_decimals(Font& font, const HeatmapLayout& layout, const std::vector<Grid>& grids);
// Reads the colors drawn by draw_cells and writes each measured value on top.
void draw_cell_values(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel, const Grid& grid,
                      int decimals);
// kInk or white, whichever contrasts more with `background` (WCAG contrast ratio).
Rgb text_color_on(Rgb background);

// heatmap_axes.cpp: row labels left of the panel (where the layout has room
// for them), column labels below it, rotated; group names outside those
// (where layout.row_group_labels / column_group_labels put them); the axis
// titles outermost.
void draw_axis_labels(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel, const Grid& grid);
void draw_group_names(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel);
void draw_axis_titles(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel,
                      const HeatmapStyle& style);
// Where the names of `groups` go along an axis of `cell` pixels a unit,
// measured by `width_of`. Nearest the axis, every group's own name
// ("GPC3" of "g1 S0 GPC3"), none dropped: each takes the longest of its
// group_name_forms that finds room in one of the first few lanes (a name may
// be wider than its group, but keeps clear of every other name in its
// lane); a name with no room there takes its shortest form in a lane of its
// own further out. Beyond them a lane of bands for the sides ("side 0", or
// "S0" where a side is narrow) and, outermost, one for the devices ("GPU 1"
// or "g1"): a band spans its run of groups and holds its name inside it, or
// is left out where no form fits. Labels stay within the axis.
std::vector<GroupLabel> place_group_labels(const std::vector<AxisGroup>& groups, int cell,
                                           const std::function<int(const std::string&)>& width_of);
// The lanes `labels` use (0 without labels).
int lane_count(const std::vector<GroupLabel>& labels);
// The names a group's own label may show, longest first: its own name (the
// device and side, which the bands show, left out: "S0 GPC3" -> "GPC3"),
// then without the stem every group's own name shares ("3" among
// GPC0..GPC11). Never a name cut inside a word or a number.
std::vector<std::string> group_name_forms(const std::vector<AxisGroup>& groups, const std::string& name);

void draw_colorbar(Image& image, Font& font, const HeatmapLayout& layout, const ColorScale& scale,
                   const std::string& colormap_name, const std::string& value_label);
// What gray means in `grids`, for the legend under the picture: a map's
// diagonal (a unit with itself), and cells with no value (a pair not
// measured or timed out: a matrix CSV keeps no difference between them).
// Empty when nothing is gray.
std::string gray_legend(const std::vector<Grid>& grids);
// The gray swatch and `text` in layout.legend.
void draw_legend(Image& image, Font& font, const HeatmapLayout& layout, const std::string& text);

}  // namespace cumap::render
