#include <algorithm>
#include <optional>
#include <string>

#include "cumap/error.hpp"
#include "render/canvas.hpp"
#include "render/colormap_tables.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap {
namespace {

using render::Font;
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

bool same_units(const std::vector<HeatmapPanel>& panels) {
  return std::all_of(panels.begin(), panels.end(),
                     [&](const HeatmapPanel& p) { return p.matrix.units == panels.front().matrix.units; });
}

render::LayoutText measure_text(Font& font, const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style,
                                const std::vector<std::string>& tick_labels) {
  render::LayoutText text;
  if (!style.title.empty()) {
    const TextExtent title = font.measure(style.title, render::kTitlePx);
    text.title_width = title.width;
    text.title_height = font.measure("Ag", render::kTitlePx).height();
  }
  if (std::any_of(panels.begin(), panels.end(), [](const HeatmapPanel& p) { return !p.title.empty(); }))
    text.panel_title_height = font.measure("Ag", render::kPanelTitlePx).height();
  for (const auto& panel : panels)
    text.panel_title_width = std::max(text.panel_title_width, font.measure(panel.title, render::kPanelTitlePx).width);
  for (const auto& panel : panels)
    for (int unit : panel.matrix.units)
      text.unit_label_width = std::max(text.unit_label_width, font.measure(std::to_string(unit), render::kUnitLabelPx).width);
  text.unit_label_height = font.measure("0123456789", render::kUnitLabelPx).height();
  if (style.groups && !style.groups->groups.empty())
    text.group_label_height = font.measure("Ag", render::kGroupLabelPx).height();
  for (const auto& label : tick_labels)
    text.tick_label_width = std::max(text.tick_label_width, font.measure(label, render::kTickLabelPx).width);
  text.tick_label_height = font.measure("0123456789", render::kTickLabelPx).height();
  text.value_label_height = font.measure(style.value_label, render::kValueLabelPx).height();
  return text;
}

}  // namespace

namespace render {

HeatmapLayout plan_heatmap(Font& font, const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style) {
  check_panels(panels);
  const ColorScale scale = choose_color_scale(panels, style.scale);
  LayoutInput input;
  input.units = static_cast<int>(panels.front().matrix.size());
  input.panels = static_cast<int>(panels.size());
  input.row_labels_on_every_panel = !same_units(panels);
  input.text = measure_text(font, panels, style, format_ticks(nice_ticks(scale.min, scale.max)));
  return layout_heatmap(input);
}

}  // namespace render

Image render_heatmap(const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style) {
  check_panels(panels);
  render::colormap_table(style.colormap);  // unknown names fail before any work
  if (style.scale && !(style.scale->first < style.scale->second))
    throw UsageError("heatmap: color scale needs MIN < MAX");
  Font font(render::default_font_path());

  const render::ColorScale scale = render::choose_color_scale(panels, style.scale);
  const render::HeatmapLayout layout = render::plan_heatmap(font, panels, style);

  Image image = render::blank_image(layout.width, layout.height, render::kWhite);
  if (!style.title.empty())
    font.draw(image, style.title, render::kTitlePx, layout.title.x,
              layout.title.y + font.measure("Ag", render::kTitlePx).ascent, render::kInk);

  const std::optional<int> value_decimals = render::cell_value_decimals(font, layout, panels);
  const int panel_title_ascent = font.measure("Ag", render::kPanelTitlePx).ascent;
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const HeatmapPanel& panel = panels[i];
    const render::Rect& area = layout.panels[i];
    render::draw_cells(image, area, layout.cell, panel.matrix, scale, style.colormap);
    if (value_decimals) render::draw_cell_values(image, font, layout, i, panel.matrix, *value_decimals);
    render::frame_rect(image, area.x, area.y, area.width, area.height, render::kInk);
    if (!panel.title.empty()) {
      const int width = font.measure(panel.title, render::kPanelTitlePx).width;
      const render::Rect& box = layout.panel_titles[i];
      font.draw(image, panel.title, render::kPanelTitlePx, box.x + (box.width - width) / 2,
                box.y + panel_title_ascent, render::kInk);
    }
    render::draw_unit_labels(image, font, layout, i, panel.matrix.units);
    if (style.groups && !style.groups->groups.empty()) {
      const auto spans = render::group_spans(panel.matrix.units, *style.groups);
      render::draw_group_separators(image, area, layout.cell, spans);
      render::draw_group_names(image, font, layout, i, spans);
    }
  }
  render::draw_colorbar(image, font, layout, scale, style.colormap, style.value_label);
  return image;
}

}  // namespace cumap
