#pragma once
#include <vector>

// Where everything goes in a heatmap picture. Pure geometry from counts and
// measured text sizes, so it can be tested without fonts or pixels.
namespace cumap::render {

struct Rect {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
  int right() const { return x + width; }
  int bottom() const { return y + height; }
};

// Text sizes in pixels, measured by the caller with the fonts it will draw with.
struct LayoutText {
  int title_width = 0;          // 0 when there is no title
  int title_height = 0;
  int panel_title_height = 0;   // 0 when no panel has a title
  int panel_title_width = 0;    // widest panel title
  int unit_label_width = 0;     // widest unit id
  int unit_label_height = 0;    // tallest unit id
  int group_label_height = 0;   // 0 when there are no groups
  int tick_label_width = 0;     // widest colorbar tick label
  int tick_label_height = 0;
  int value_label_height = 0;   // colorbar caption, drawn rotated
};

struct LayoutInput {
  int units = 0;
  int panels = 1;
  bool row_labels_on_every_panel = false;  // panels with different unit ids
  LayoutText text;
};

struct HeatmapLayout {
  int width = 0;
  int height = 0;
  int cell = 0;        // pixels per matrix cell, both ways
  int label_step = 1;  // every label_step-th unit gets an id label
  int cell_value_px = 0;  // font size of the values printed in the cells; 0: cells too small
  Rect title;
  std::vector<Rect> panels;         // the cells of each panel
  std::vector<Rect> panel_titles;   // centred on their panel, at least as wide as it
  std::vector<Rect> row_labels;     // left of a panel; width 0 where omitted
  std::vector<Rect> column_labels;  // below a panel, ids drawn rotated
  std::vector<Rect> row_groups;     // group names left of the row labels
  std::vector<Rect> column_groups;  // group names below the column labels
  Rect colorbar;
  Rect colorbar_labels;
  Rect value_label;
};

inline constexpr int kTickLength = 3;

// Up to 256 units the larger of min(16, 800/N) and min(80, 384/N), at least 4:
// small maps get big cells (a 2-unit panel is as tall as the colorbar, up to
// 24 units a panel is about 384 px), mid-sized ones 16 px down to 4 px.
// Beyond 256, as many pixels as keep the panel near 1024 wide, which is
// 1 pixel a cell at 1024 units.
int cell_size(int units);
// Cells at least this large show their value as text.
inline constexpr int kMinCellForValues = 40;
// Smallest step of 1, 2, 5, 10, 20, 50... with labels at least `pitch` apart.
int label_step(int cell, int pitch);
HeatmapLayout layout_heatmap(const LayoutInput& input);

}  // namespace cumap::render
