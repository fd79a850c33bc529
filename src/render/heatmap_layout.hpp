#pragma once
#include <string>
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
  int row_label_width = 0;      // widest row label (a unit id)
  int column_label_width = 0;   // widest column label; drawn rotated, so its height on the page
  int label_height = 0;         // tallest row or column label
  // The band of group names beside the rows (below the columns): all its
  // lanes (see place_group_labels); 0 when that axis has no groups.
  int row_group_label_height = 0;
  int column_group_label_height = 0;
  int tick_label_width = 0;     // widest colorbar tick label
  int tick_label_height = 0;
  int value_label_height = 0;   // colorbar caption, drawn rotated
  int axis_title_height = 0;    // "SM a" left of the rows (rotated) and "SM b" below the columns; 0: none
  int legend_width = 0;         // the gray swatch and its words; 0: no legend
  int legend_height = 0;
};

struct LayoutInput {
  int rows = 0;     // a map: its units, both ways
  int columns = 0;
  int panels = 1;
  int panels_per_row = 0;  // panels wrap after this many; 0: all in one row
  bool row_labels_on_every_panel = false;  // panels with different unit ids
  LayoutText text;
};

// A group's name as drawn along an axis: `offset` and `width` in pixels
// from the panel's edge along the axis, `lane` how far out (0: next to the
// unit labels; names that do not fit beside their neighbours go further out).
// A band names a run of groups (a side, a device) in a lane of its own
// beyond the groups' names: a line along the run, from band_offset for
// band_width pixels, with the name in its middle.
struct GroupLabel {
  std::string text;
  int offset = 0;
  int width = 0;
  int lane = 0;
  int band_offset = 0;
  int band_width = 0;  // 0: a group's own name, no band
};

struct HeatmapLayout {
  int width = 0;
  int height = 0;
  // Pixels per cell, each axis sized by cell_size: square for a map; a
  // table of a few units by many lines gets tall rows and narrow columns.
  int cell_width = 0;
  int cell_height = 0;
  // Every row_label_step-th row gets its unit's label; 0: none (the axis
  // is too long for them and its group names say where a unit is).
  int row_label_step = 1;
  int column_label_step = 1;  // likewise for columns
  int cell_value_px = 0;  // font size of the values printed in the cells; 0: cells too small
  Rect title;
  std::vector<Rect> panels;         // the cells of each panel
  std::vector<Rect> panel_titles;   // centred on their panel, at least as wide as it
  std::vector<Rect> row_labels;     // left of a panel; width 0 where omitted
  std::vector<Rect> column_labels;  // below a panel, ids drawn rotated; height 0 without labels
  std::vector<Rect> row_groups;     // group names left of the row labels
  std::vector<Rect> column_groups;  // group names below the column labels
  std::vector<Rect> row_titles;     // left of the row groups, rotated; width 0 where omitted
  std::vector<Rect> column_titles;  // below the column groups; height 0 without titles
  // Where each panel's group names go (filled by the caller that measured them).
  std::vector<std::vector<GroupLabel>> row_group_labels;
  std::vector<std::vector<GroupLabel>> column_group_labels;
  int group_lane_pitch = 0;  // pixels from one lane of group names to the next
  Rect colorbar;
  Rect colorbar_labels;
  Rect value_label;
  Rect legend;  // below everything, left; empty without a legend
};

inline constexpr int kTickLength = 3;
// Up to this many units an axis labels every unit (its cells grow to fit
// the labels); beyond it, its group names, or every few units without groups.
inline constexpr int kLabelEveryUnitUpTo = 64;
// A picture of one map (units by units) labels every unit up to this many:
// an H100's or H200's 132 SMs each readable by id (the ids of a side-and-
// group order say nothing every few units, so it is every one or none);
// pictures of several maps (heatmap.png) and tables keep to kLabelEveryUnitUpTo.
inline constexpr int kLabelEveryUnitOfOneMapUpTo = 132;

// Cell size along an axis of N `units` (rows or columns). Up to 256 units
// the larger of min(16, 800/N) and min(80, 384/N), at least 4: small maps
// get big cells (a 2-unit panel is as tall as the colorbar, up to 24 units a
// panel is about 384 px), mid-sized ones 16 px down to 4 px.
// Beyond 256, as many pixels as keep the panel near 1024 wide, which is
// 1 pixel a cell at 1024 units.
int cell_size(int units);
// Cells at least this large both ways show their value as text.
inline constexpr int kMinCellForValues = 40;
// Smallest step of 1, 2, 5, 10, 20, 50... with labels at least `pitch` apart.
int label_step(int cell, int pitch);
HeatmapLayout layout_heatmap(const LayoutInput& input);

}  // namespace cumap::render
