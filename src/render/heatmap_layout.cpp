#include "render/heatmap_layout.hpp"

#include <algorithm>

namespace cumap::render {
namespace {

constexpr int kMargin = 16;
constexpr int kTitleGap = 10;
constexpr int kPanelTitleGap = 6;
constexpr int kLabelGap = 2;        // between tick mark and label
constexpr int kGroupGap = 6;        // between id labels and group names
constexpr int kPanelGap = 24;
constexpr int kColorbarGap = 28;
constexpr int kColorbarWidth = 18;
constexpr int kColorbarMinHeight = 160;  // room for 7 tick labels on small maps
constexpr int kCaptionGap = 10;

}  // namespace

int cell_size(int units) {
  if (units <= 0) return 16;
  if (units <= 256) return std::max(4, std::min(16, 800 / units));
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
  out.cell = cell_size(in.units);
  // Room for the ids plus a gap of most of a line, so neighbours never touch.
  out.label_step = label_step(out.cell, t.unit_label_height + 6);
  const int panel_px = in.units * out.cell;
  const bool groups = t.group_label_height > 0;

  int y = kMargin;
  if (t.title_height > 0) {
    out.title = {0, y, 0, t.title_height};  // x and width once the width is known
    y += t.title_height + kTitleGap;
  }
  const int panel_title_y = y;
  if (t.panel_title_height > 0) y += t.panel_title_height + kPanelTitleGap;
  const int panel_top = y;
  const int below = panel_top + panel_px + kTickLength + kLabelGap;
  const int label_band = t.unit_label_width;

  int x = kMargin;
  for (int i = 0; i < in.panels; ++i) {
    const bool row_labels = i == 0 || in.row_labels_on_every_panel;
    Rect row_groups{x, panel_top, 0, panel_px};
    if (row_labels && groups) {
      row_groups.width = t.group_label_height;
      x += row_groups.width + kGroupGap;
    }
    Rect row_labels_rect{x, panel_top, 0, panel_px};
    if (row_labels) {
      row_labels_rect.width = label_band;
      x += label_band + kLabelGap + kTickLength;
    }
    const Rect panel{x, panel_top, panel_px, panel_px};
    out.panels.push_back(panel);
    out.panel_titles.push_back({x, panel_title_y, panel_px, t.panel_title_height});
    out.row_labels.push_back(row_labels_rect);
    out.row_groups.push_back(row_groups);
    out.column_labels.push_back({x, below, panel_px, label_band});
    out.column_groups.push_back({x, below + label_band + kGroupGap, panel_px, groups ? t.group_label_height : 0});
    x += panel_px + (i + 1 < in.panels ? kPanelGap : 0);
  }

  x += kColorbarGap;
  out.colorbar = {x, panel_top, kColorbarWidth, std::max(panel_px, kColorbarMinHeight)};
  x += kColorbarWidth + kTickLength + kLabelGap + 2;
  out.colorbar_labels = {x, panel_top, t.tick_label_width, out.colorbar.height};
  x += t.tick_label_width + kCaptionGap;
  out.value_label = {x, panel_top, t.value_label_height, out.colorbar.height};
  x += t.value_label_height + kMargin;

  out.width = std::max(x, t.title_width + 2 * kMargin);
  out.title.x = (out.width - t.title_width) / 2;
  out.title.width = t.title_width;

  const int content_bottom = groups ? out.column_groups.back().bottom() : out.column_labels.back().bottom();
  // Half a tick label may stick out below the colorbar's last tick.
  const int colorbar_bottom = out.colorbar.bottom() + t.tick_label_height / 2 + 1;
  out.height = std::max(content_bottom, colorbar_bottom) + kMargin;
  return out;
}

}  // namespace cumap::render
