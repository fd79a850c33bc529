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
constexpr int kAxisTitleGap = 6;    // between group names (or labels) and the axis title
constexpr int kPanelGap = 24;
constexpr int kPanelRowGap = 24;    // between one row of panels' lowest text and the next row's titles
constexpr int kColorbarGap = 28;
constexpr int kColorbarWidth = 18;
constexpr int kColorbarMinHeight = 160;  // room for 7 tick labels on small maps
constexpr int kCaptionGap = 10;
constexpr int kLegendGap = 12;
constexpr int kSmallMapPanel = 384;  // panel size small maps grow their cells to
constexpr int kMaxCell = 80;
// Blank pixels between the labels of neighbouring units when every unit is
// labelled: digits 8 px tall on a 12 px pitch still read as separate numbers.
constexpr int kUnitLabelSpacing = 4;

void shift_right(Rect& rect, int dx) { rect.x += dx; }

// Moves everything but the main title right by dx (centres the content under a wide title).
void shift_content(HeatmapLayout& layout, int dx) {
  for (auto* rects : {&layout.panels, &layout.panel_titles, &layout.row_labels, &layout.column_labels,
                      &layout.row_groups, &layout.column_groups, &layout.row_titles, &layout.column_titles})
    for (Rect& rect : *rects) shift_right(rect, dx);
  for (Rect* rect : {&layout.colorbar, &layout.colorbar_labels, &layout.value_label, &layout.legend})
    shift_right(*rect, dx);
}

// An axis's cell size and which of its units get labels.
struct AxisPlan {
  int cell = 0;
  int label_step = 0;  // 0: no unit labels
};

// Up to `label_every_up_to` units (kLabelEveryUnitUpTo, or
// kLabelEveryUnitOfOneMapUpTo for a picture of one map) every unit is
// labelled, so that any unit can be found (the cells grow if the labels need it). Longer axes with
// groups show the group names instead: every few units of an order by side
// and group (0, 33, 24, 57 ...) help no one find a unit. Without groups
// the order is by id, and every few ids still read as a ruler.
AxisPlan plan_axis(int units, int label_height, bool groups, int label_every_up_to) {
  const int cell = cell_size(units);
  if (units <= label_every_up_to) return {std::max(cell, label_height + kUnitLabelSpacing), 1};
  if (groups) return {cell, 0};
  // Room for a label plus a gap of most of a line, so neighbours never touch
  // (column labels are rotated: their height runs along the row of columns).
  return {cell, label_step(cell, label_height + 6)};
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
  const bool row_groups = t.row_group_label_height > 0;
  const bool column_groups = t.column_group_label_height > 0;
  const bool one_map = in.panels == 1 && in.rows == in.columns;
  const int label_every_up_to = one_map ? kLabelEveryUnitOfOneMapUpTo : kLabelEveryUnitUpTo;
  const AxisPlan rows = plan_axis(in.rows, t.label_height, row_groups, label_every_up_to);
  const AxisPlan columns = plan_axis(in.columns, t.label_height, column_groups, label_every_up_to);
  out.cell_width = columns.cell;
  out.cell_height = rows.cell;
  out.row_label_step = rows.label_step;
  out.column_label_step = columns.label_step;
  // A quarter of the cell reads well without crowding the cell; 16 px is plenty.
  const int smaller_side = std::min(out.cell_width, out.cell_height);
  if (smaller_side >= kMinCellForValues) out.cell_value_px = std::min(16, smaller_side / 4);
  const int panel_width = in.columns * out.cell_width;
  const int panel_height = in.rows * out.cell_height;
  const int per_row = in.panels_per_row > 0 ? std::min(in.panels_per_row, in.panels) : in.panels;

  // What a labelled panel has on its left, outwards: ticks and unit labels,
  // group names, the axis title.
  const int row_label_width = rows.label_step > 0 ? t.row_label_width : 0;
  const int label_room = row_label_width > 0 ? row_label_width + kLabelGap + kTickLength : 0;
  const int group_room = row_groups ? t.row_group_label_height + kGroupGap : 0;
  const int axis_title_room = t.axis_title_height > 0 ? t.axis_title_height + kAxisTitleGap : 0;
  const int column_label_height = columns.label_step > 0 ? t.column_label_width : 0;

  int y = kMargin;
  if (t.title_height > 0) {
    out.title = {0, y, 0, t.title_height};  // x and width once the width is known
    y += t.title_height + kTitleGap;
  }
  const int title_width = std::max(panel_width, t.panel_title_height > 0 ? t.panel_title_width : 0);
  // A title wider than its panel hangs out equally on both sides.
  const int overhang = (title_width - panel_width) / 2;

  // Where the panels of a row go across; every row of panels the same.
  std::vector<int> panel_xs;
  int x = kMargin;            // where the next panel's labels may start
  int title_floor = kMargin;  // where the next panel title may start
  for (int i = 0; i < per_row; ++i) {
    const bool labelled = i == 0 || in.row_labels_on_every_panel;
    const int left_room = labelled ? axis_title_room + group_room + label_room : 0;
    // Labels hug the panel; a wide title may push both further right.
    const int panel_x = std::max(x + left_room, title_floor + overhang);
    panel_xs.push_back(panel_x);
    x = panel_x + panel_width + (i + 1 < per_row ? kPanelGap : 0);
    title_floor = panel_x - overhang + title_width + kPanelTitleSpacing;
  }

  int band_top = y;  // the top of the current row of panels (their titles)
  int content_bottom = y;
  int first_panel_top = y;
  for (int i = 0; i < in.panels; ++i) {
    const int column = i % per_row;
    if (i > 0 && column == 0) band_top = content_bottom + kPanelRowGap;
    const int panel_top = band_top + (t.panel_title_height > 0 ? t.panel_title_height + kPanelTitleGap : 0);
    if (i == 0) first_panel_top = panel_top;
    const int panel_x = panel_xs[static_cast<std::size_t>(column)];
    const bool labelled = column == 0 || in.row_labels_on_every_panel;

    const Rect panel{panel_x, panel_top, panel_width, panel_height};
    const Rect row_labels{panel_x - (labelled ? label_room : 0), panel_top, labelled ? row_label_width : 0,
                          panel_height};
    const Rect row_group_names{row_labels.x - (labelled ? group_room : 0), panel_top,
                               labelled && row_groups ? t.row_group_label_height : 0, panel_height};
    const Rect row_title{row_group_names.x - (labelled ? axis_title_room : 0), panel_top,
                         labelled ? t.axis_title_height : 0, panel_height};
    const Rect column_labels{panel_x, panel.bottom() + kTickLength + kLabelGap, panel_width, column_label_height};
    const Rect column_group_names{panel_x, column_labels.bottom() + (column_label_height > 0 ? kGroupGap : 0),
                                  panel_width, t.column_group_label_height};
    const int above_title = std::max(column_labels.bottom(), column_group_names.bottom());
    const Rect column_title{panel_x, above_title + (t.axis_title_height > 0 ? kAxisTitleGap : 0), panel_width,
                            t.axis_title_height};
    out.panels.push_back(panel);
    out.panel_titles.push_back({panel_x - overhang, band_top, title_width, t.panel_title_height});
    out.row_labels.push_back(row_labels);
    out.row_groups.push_back(row_group_names);
    out.row_titles.push_back(row_title);
    out.column_labels.push_back(column_labels);
    out.column_groups.push_back(column_group_names);
    out.column_titles.push_back(column_title);
    content_bottom = std::max({content_bottom, panel.bottom(), above_title, column_title.bottom()});
  }

  x = std::max(x + kColorbarGap, title_floor);
  out.colorbar = {x, first_panel_top, kColorbarWidth, std::max(panel_height, kColorbarMinHeight)};
  x += kColorbarWidth + kTickLength + kLabelGap + 2;
  out.colorbar_labels = {x, first_panel_top, t.tick_label_width, out.colorbar.height};
  x += t.tick_label_width + kCaptionGap;
  out.value_label = {x, first_panel_top, t.value_label_height, out.colorbar.height};
  x += t.value_label_height + kMargin;

  // The legend under the first panel's row, left-aligned with the outermost
  // text of the first panel.
  if (t.legend_width > 0) {
    const int left = std::min({out.row_titles[0].x, out.row_groups[0].x, out.row_labels[0].x, out.panels[0].x});
    out.legend = {left, content_bottom + kLegendGap, t.legend_width, t.legend_height};
    content_bottom = out.legend.bottom();
    x = std::max(x, out.legend.right() + kMargin);
  }

  // The picture grows to hold the whole title, and what is under it is centred.
  out.width = std::max(x, t.title_width + 2 * kTitleMargin);
  shift_content(out, (out.width - x) / 2);
  out.title.x = (out.width - t.title_width) / 2;
  out.title.width = t.title_width;

  // Half a tick label may stick out below the colorbar's last tick.
  const int colorbar_bottom = out.colorbar.bottom() + t.tick_label_height / 2 + 1;
  out.height = std::max(content_bottom, colorbar_bottom) + kMargin;
  return out;
}

}  // namespace cumap::render
