#pragma once
#include <optional>
#include <string>
#include <vector>

#include "cumap/render.hpp"
#include "render/color_scale.hpp"
#include "render/font.hpp"
#include "render/heatmap_layout.hpp"

// The pieces render_heatmap draws, one file each.
namespace cumap::render {

// Pixel sizes of the fonts, chosen for a figure printed at column width.
inline constexpr int kTitlePx = 18;
inline constexpr int kPanelTitlePx = 15;
inline constexpr int kUnitLabelPx = 11;
inline constexpr int kGroupLabelPx = 12;
inline constexpr int kTickLabelPx = 12;
inline constexpr int kValueLabelPx = 13;

inline constexpr Rgb kSeparator{255, 255, 255};

// heatmap.cpp: the layout render_heatmap will use (text measured with `font`).
HeatmapLayout plan_heatmap(Font& font, const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style);

// A run of consecutive display positions [begin, end) in one group; units no
// group names form runs with an empty name.
struct GroupSpan {
  int begin = 0;
  int end = 0;
  std::string name;
};
std::vector<GroupSpan> group_spans(const std::vector<int>& units, const Topology& topology);

// heatmap_cells.cpp
void draw_cells(Image& image, const Rect& panel, int cell, const ValueMatrix& matrix, const ColorScale& scale,
                const std::string& colormap_name);
void draw_group_separators(Image& image, const Rect& panel, int cell, const std::vector<GroupSpan>& spans);

// cell_values.cpp: values printed inside cells large enough to hold them
// (layout.cell_value_px > 0), so that tiny maps can be read exactly.
// Decimals that fit every value of every panel into a cell (the same for all,
// so the numbers line up), or nullopt when no values should be printed.
std::optional<int> cell_value_decimals(Font& font, const HeatmapLayout& layout,
                                       const std::vector<HeatmapPanel>& panels);
// Reads the colors drawn by draw_cells and writes each finite off-diagonal value on top.
void draw_cell_values(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel,
                      const ValueMatrix& matrix, int decimals);
// kInk or white, whichever contrasts more with `background` (WCAG contrast ratio).
Rgb text_color_on(Rgb background);

// heatmap_axes.cpp
void draw_unit_labels(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel,
                      const std::vector<int>& units);
void draw_group_names(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel,
                      const std::vector<GroupSpan>& spans);

// colorbar.cpp
void draw_colorbar(Image& image, Font& font, const HeatmapLayout& layout, const ColorScale& scale,
                   const std::string& colormap_name, const std::string& value_label);

}  // namespace cumap::render
