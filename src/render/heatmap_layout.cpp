#include "render/heatmap_layout.hpp"

#include <algorithm>

namespace cumap::render {
namespace {

constexpr int kMargin = 16;
constexpr int kTitleMargin = 24;     // either side of the main title, so it never touches the edge
constexpr int kTitleGap = 10;
constexpr int kPanelTitleGap = 6;
constexpr int kPanelTitleSpacing = 16;  // between neighbouring panel titles, and before the colorbar
constexpr int kLabelGap = 2;        // between tick mark and label
constexpr int kGroupGap = 6;        // between id labels and group names
constexpr int kPanelGap = 24;
constexpr int kColorbarGap = 28;
constexpr int kColorbarWidth = 18;
constexpr int kColorbarMinHeight = 160;  // room for 7 tick labels on small maps
constexpr int kCaptionGap = 10;
constexpr int kSmallMapPanel = 384;  // panel size small maps grow their cells to
constexpr int kMaxCell = 80;

void shift_right(Rect& rect, int dx) { rect.x += dx; }

// Moves everything but the main title right by dx (centres the content under a wide title).
void shift_content(HeatmapLayout& layout, int dx) {
  for (auto* rects : {&layout.panels, &layout.panel_titles, &layout.row_labels, &layout.column_labels,
                      &layout.row_groups, &layout.column_groups})
    for (Rect& rect : *rects) shift_right(rect, dx);
  for (Rect* rect : {&layout.colorbar, &layout.colorbar_labels, &layout.value_label}) shift_right(*rect, dx);
}

}  // namespace

int cell_size(int units) {
  if (units <= 0) return 16;
  if (units <= 256) return std::max({4, std::min(16, 800 / units), std::min(kMaxCell, kSmallMapPanel / units)});
  return std::max(1, 1024 / units);
}

int label_step(int cell, int pitch) {
  for (int decade = 1;; decade *= 10)
    for (int mantissa : {1, 2, 5})
      if (mantissa * decade * cell >= pitch) return mantissa * decade;
}

HeatmapLayout layout_heatmap(const LayoutInput& in) {
  const LayoutText& t = in.text;
  HeatmapLayout out;
  out.cell_width = cell_size(in.columns);
  out.cell_height = cell_size(in.rows);
  // Room for a label plus a gap of most of a line, so neighbours never touch
  // (column labels are rotated: their height runs along the row of columns).
  out.row_label_step = label_step(out.cell_height, t.label_height + 6);
  out.column_label_step = label_step(out.cell_width, t.label_height + 6);
  // A quarter of the cell reads well without crowding the cell; 16 px is plenty.
  const int smaller_side = std::min(out.cell_width, out.cell_height);
  if (smaller_side >= kMinCellForValues) out.cell_value_px = std::min(16, smaller_side / 4);
  const int panel_width = in.columns * out.cell_width;
  const int panel_height = in.rows * out.cell_height;
  const bool row_groups = t.row_group_label_height > 0;
  const bool column_groups = t.column_group_label_height > 0;

  int y = kMargin;
  if (t.title_height > 0) {
    out.title = {0, y, 0, t.title_height};  // x and width once the width is known
    y += t.title_height + kTitleGap;
  }
  const int panel_title_y = y;
  if (t.panel_title_height > 0) y += t.panel_title_height + kPanelTitleGap;
  const int panel_top = y;
  const int below = panel_top + panel_height + kTickLength + kLabelGap;
  const int title_width = std::max(panel_width, t.panel_title_height > 0 ? t.panel_title_width : 0);
  // A title wider than its panel hangs out equally on both sides.
  const int overhang = (title_width - panel_width) / 2;

  int x = kMargin;            // where the next panel's labels may start
  int title_floor = kMargin;  // where the next panel title may start
  for (int i = 0; i < in.panels; ++i) {
    const bool row_labels = i == 0 || in.row_labels_on_every_panel;
    const int label_room = row_labels ? t.row_label_width + kLabelGap + kTickLength : 0;
    const int group_room = row_labels && row_groups ? t.row_group_label_height + kGroupGap : 0;
    // Labels hug the panel; a wide title may push both further right.
    const int panel_x = std::max(x + group_room + label_room, title_floor + overhang);
    const Rect panel{panel_x, panel_top, panel_width, panel_height};
    const Rect row_labels_rect{panel_x - label_room, panel_top, row_labels ? t.row_label_width : 0, panel_height};
    const Rect row_groups_rect{row_labels_rect.x - group_room, panel_top,
                               group_room > 0 ? t.row_group_label_height : 0, panel_height};
    const Rect title{panel_x - overhang, panel_title_y, title_width, t.panel_title_height};
    out.panels.push_back(panel);
    out.panel_titles.push_back(title);
    out.row_labels.push_back(row_labels_rect);
    out.row_groups.push_back(row_groups_rect);
    out.column_labels.push_back({panel_x, below, panel_width, t.column_label_width});
    out.column_groups.push_back(
        {panel_x, below + t.column_label_width + kGroupGap, panel_width, t.column_group_label_height});
    x = panel.right() + (i + 1 < in.panels ? kPanelGap : 0);
    title_floor = title.right() + kPanelTitleSpacing;
  }

  x = std::max(x + kColorbarGap, title_floor);
  out.colorbar = {x, panel_top, kColorbarWidth, std::max(panel_height, kColorbarMinHeight)};
  x += kColorbarWidth + kTickLength + kLabelGap + 2;
  out.colorbar_labels = {x, panel_top, t.tick_label_width, out.colorbar.height};
  x += t.tick_label_width + kCaptionGap;
  out.value_label = {x, panel_top, t.value_label_height, out.colorbar.height};
  x += t.value_label_height + kMargin;

  // The picture grows to hold the whole title, and what is under it is centred.
  out.width = std::max(x, t.title_width + 2 * kTitleMargin);
  shift_content(out, (out.width - x) / 2);
  out.title.x = (out.width - t.title_width) / 2;
  out.title.width = t.title_width;

  const int content_bottom = column_groups ? out.column_groups.back().bottom() : out.column_labels.back().bottom();
  // Half a tick label may stick out below the colorbar's last tick.
  const int colorbar_bottom = out.colorbar.bottom() + t.tick_label_height / 2 + 1;
  out.height = std::max(content_bottom, colorbar_bottom) + kMargin;
  return out;
}

}  // namespace cumap::render
