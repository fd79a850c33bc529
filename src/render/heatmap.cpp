#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

#include "cumap/error.hpp"
#include "core/units.hpp"
#include "render/canvas.hpp"
#include "render/colormap_tables.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap {
namespace {

using render::Font;
using render::Grid;
using render::TextExtent;

void check_panels(const std::vector<HeatmapPanel>& panels) {
  if (panels.empty()) throw UsageError("heatmap: nothing to draw (no panels)");
  for (const auto& panel : panels) {
    const std::size_t n = panel.matrix.size();
    if (n == 0) throw UsageError("heatmap: a panel has no units");
    if (panel.matrix.values.size() != n * n) throw UsageError("heatmap: a panel's matrix is not square");
    if (n != panels.front().matrix.size())
      throw UsageError("heatmap: panels must have the same number of units to share a picture");
  }
}

// A table's groups must tile its axis, as axis_groups() makes them: the
// separators then mark every boundary and nothing else.
void check_groups(const std::vector<AxisGroup>& groups, std::size_t count, const std::string& axis) {
  if (groups.empty()) return;
  int next = 0;
  bool tiled = true;
  for (const AxisGroup& g : groups) {
    tiled = tiled && g.begin == next && g.end > g.begin;
    next = g.end;
  }
  if (!tiled || static_cast<std::size_t>(next) != count)
    throw UsageError("heatmap: a table's " + axis + " groups must be consecutive runs covering every one of its " + axis);
}

void check_table(const HeatmapTable& table) {
  const std::size_t rows = table.rows.labels.size(), columns = table.columns.labels.size();
  if (rows == 0 || columns == 0) throw UsageError("heatmap: a table has no rows or no columns");
  if (table.values.size() != rows * columns)
    throw UsageError("heatmap: a table's values do not match its rows and columns");
  check_groups(table.rows.groups, rows, "rows");
  check_groups(table.columns.groups, columns, "columns");
}

// Row labels are drawn once, left of the first panel, when every panel has
// the same rows.
bool same_rows(const std::vector<Grid>& grids) {
  return std::all_of(grids.begin(), grids.end(),
                     [&](const Grid& g) { return g.rows.labels == grids.front().rows.labels; });
}

int widest(Font& font, const std::vector<std::string>& labels) {
  int width = 0;
  for (const auto& label : labels) width = std::max(width, font.measure(label, render::kUnitLabelPx).width);
  return width;
}

render::LayoutText measure_text(Font& font, const std::vector<Grid>& grids, const HeatmapStyle& style,
                                const std::vector<std::string>& tick_labels) {
  render::LayoutText text;
  if (!style.title.empty()) {
    const TextExtent title = font.measure(style.title, render::kTitlePx);
    text.title_width = title.width;
    text.title_height = font.measure("Ag", render::kTitlePx).height();
  }
  if (std::any_of(grids.begin(), grids.end(), [](const Grid& g) { return !g.title.empty(); }))
    text.panel_title_height = font.measure("Ag", render::kPanelTitlePx).height();
  // One lane of group names for now; plan_grids sets the lanes they need.
  const int group_height = font.measure("Ag", render::kGroupLabelPx).height();
  for (const auto& grid : grids) {
    text.panel_title_width = std::max(text.panel_title_width, font.measure(grid.title, render::kPanelTitlePx).width);
    text.row_label_width = std::max(text.row_label_width, widest(font, grid.rows.labels));
    text.column_label_width = std::max(text.column_label_width, widest(font, grid.columns.labels));
    if (!grid.rows.groups.empty()) text.row_group_label_height = group_height;
    if (!grid.columns.groups.empty()) text.column_group_label_height = group_height;
  }
  text.label_height = font.measure("0123456789", render::kUnitLabelPx).height();
  for (const auto& label : tick_labels)
    text.tick_label_width = std::max(text.tick_label_width, font.measure(label, render::kTickLabelPx).width);
  text.tick_label_height = font.measure("0123456789", render::kTickLabelPx).height();
  text.value_label_height = font.measure(style.value_label, render::kValueLabelPx).height();
  if (!style.row_title.empty() || !style.column_title.empty())
    text.axis_title_height = font.measure("Ag", render::kAxisTitlePx).height();
  if (const std::string legend = render::gray_legend(grids); !legend.empty()) {
    text.legend_height = font.measure("Ag", render::kLegendPx).height() + 2;  // the swatch's side
    text.legend_width = text.legend_height + render::kLegendSwatchGap + font.measure(legend, render::kLegendPx).width;
  }
  return text;
}

render::ColorScale color_scale(const std::vector<Grid>& grids, const HeatmapStyle& style) {
  std::vector<std::span<const double>> values;
  for (const Grid& grid : grids) values.push_back(grid.values);
  return render::choose_color_scale(values, style.scale);
}

// Everything render_heatmap and render_table_heatmap draw, from checked grids.
Image draw_grids(const std::vector<Grid>& grids, const HeatmapStyle& style) {
  render::colormap_table(style.colormap);  // unknown names fail before any work
  if (style.scale && !(style.scale->first < style.scale->second))
    throw UsageError("heatmap: color scale needs MIN < MAX");
  Font font(render::default_font_path());

  const render::ColorScale scale = color_scale(grids, style);
  const render::HeatmapLayout layout = render::plan_grids(font, grids, style);

  Image image = render::blank_image(layout.width, layout.height, render::kWhite);
  if (!style.title.empty())
    font.draw(image, style.title, render::kTitlePx, layout.title.x,
              layout.title.y + font.measure("Ag", render::kTitlePx).ascent, render::kInk);

  const std::optional<int> value_decimals = render::cell_value_decimals(font, layout, grids);
  const int panel_title_ascent = font.measure("Ag", render::kPanelTitlePx).ascent;
  for (std::size_t i = 0; i < grids.size(); ++i) {
    const Grid& grid = grids[i];
    const render::Rect& area = layout.panels[i];
    render::draw_cells(image, layout, i, grid, scale, style.colormap);
    if (value_decimals) render::draw_cell_values(image, font, layout, i, grid, *value_decimals);
    render::frame_rect(image, area.x, area.y, area.width, area.height, render::kInk);
    if (!grid.title.empty()) {
      const int width = font.measure(grid.title, render::kPanelTitlePx).width;
      const render::Rect& box = layout.panel_titles[i];
      font.draw(image, grid.title, render::kPanelTitlePx, box.x + (box.width - width) / 2,
                box.y + panel_title_ascent, render::kInk);
    }
    render::draw_axis_labels(image, font, layout, i, grid);
    render::draw_group_separators(image, layout, i, grid);
    render::draw_group_names(image, font, layout, i);
    render::draw_axis_titles(image, font, layout, i, style);
  }
  render::draw_colorbar(image, font, layout, scale, style.colormap, style.value_label);
  render::draw_legend(image, font, layout, render::gray_legend(grids));
  return image;
}

}  // namespace

namespace render {

std::vector<Grid> map_grids(const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style) {
  std::vector<Grid> grids;
  for (const auto& panel : panels) {
    HeatmapAxis axis;
    // Across GPUs "g1.5" (units.hpp), else the plain id.
    const bool across = ids_span_devices(panel.matrix.units);
    for (int unit : panel.matrix.units) axis.labels.push_back(format_unit_id(unit, across));
    if (style.groups && !style.groups->groups.empty()) axis.groups = axis_groups(panel.matrix.units, *style.groups);
    grids.push_back({panel.title, axis, axis, panel.matrix.values, true});
  }
  return grids;
}

Grid table_grid(const HeatmapTable& table) {
  return {table.title, table.rows, table.columns, table.values, false};
}

HeatmapLayout plan_grids(Font& font, const std::vector<Grid>& grids, const HeatmapStyle& style) {
  const ColorScale scale = color_scale(grids, style);
  LayoutInput input;
  input.rows = static_cast<int>(grids.front().row_count());
  input.columns = static_cast<int>(grids.front().column_count());
  input.panels = static_cast<int>(grids.size());
  input.panels_per_row = style.panels_per_row;
  input.row_labels_on_every_panel = !same_rows(grids);
  input.text = measure_text(font, grids, style, format_ticks(nice_ticks(scale.min, scale.max)));
  // The cell sizes do not depend on how many lanes the group names take:
  // place the names on the first layout's cells, then make room for their lanes.
  HeatmapLayout layout = layout_heatmap(input);
  const auto width_of = [&](const std::string& name) { return font.measure(name, kGroupLabelPx).width; };
  int row_lanes = 0, column_lanes = 0;
  for (std::size_t i = 0; i < layout.panels.size(); ++i) {
    const Grid& grid = grids[i];
    // Row names only where the layout has room for them (the first panel of a row of panels).
    layout.row_group_labels.push_back(layout.row_groups[i].width > 0
                                          ? place_group_labels(grid.rows.groups, layout.cell_height, width_of)
                                          : std::vector<GroupLabel>{});
    layout.column_group_labels.push_back(place_group_labels(grid.columns.groups, layout.cell_width, width_of));
    row_lanes = std::max(row_lanes, lane_count(layout.row_group_labels.back()));
    column_lanes = std::max(column_lanes, lane_count(layout.column_group_labels.back()));
  }
  const int pitch = font.measure("Ag", kGroupLabelPx).height() + 2;
  if (input.text.row_group_label_height > 0) input.text.row_group_label_height = std::max(1, row_lanes) * pitch;
  if (input.text.column_group_label_height > 0)
    input.text.column_group_label_height = std::max(1, column_lanes) * pitch;
  HeatmapLayout final_layout = layout_heatmap(input);
  final_layout.row_group_labels = std::move(layout.row_group_labels);
  final_layout.column_group_labels = std::move(layout.column_group_labels);
  final_layout.group_lane_pitch = pitch;
  return final_layout;
}

HeatmapLayout plan_heatmap(Font& font, const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style) {
  check_panels(panels);
  return plan_grids(font, map_grids(panels, style), style);
}

HeatmapLayout plan_table_heatmap(Font& font, const HeatmapTable& table, const HeatmapStyle& style) {
  check_table(table);
  return plan_grids(font, {table_grid(table)}, style);
}

}  // namespace render

Image render_heatmap(const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style) {
  check_panels(panels);
  return draw_grids(render::map_grids(panels, style), style);
}

Image render_table_heatmap(const HeatmapTable& table, const HeatmapStyle& style) {
  check_table(table);
  return draw_grids({render::table_grid(table)}, style);
}

std::vector<AxisGroup> axis_groups(const std::vector<int>& units, const Topology& topology) {
  std::unordered_map<int, std::size_t> group_of;
  for (std::size_t g = 0; g < topology.groups.size(); ++g)
    for (int unit : topology.groups[g].units) group_of.emplace(unit, g);
  constexpr std::size_t kNoGroup = static_cast<std::size_t>(-1);

  std::vector<AxisGroup> spans;
  std::size_t current = kNoGroup;
  for (std::size_t i = 0; i < units.size(); ++i) {
    const auto it = group_of.find(units[i]);
    const std::size_t g = it == group_of.end() ? kNoGroup : it->second;
    if (spans.empty() || g != current) {
      spans.push_back({static_cast<int>(i), static_cast<int>(i), g == kNoGroup ? "" : topology.groups[g].name});
      current = g;
    }
    spans.back().end = static_cast<int>(i) + 1;
  }
  return spans;
}

}  // namespace cumap
