// What is drawn around the panels: the unit labels and group names along
// their axes, and the colorbar with its ticks.
#include <algorithm>
#include <cmath>
#include <string>

#include "render/canvas.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap::render {
namespace {

// Baseline that centres digits' ink on `center` (works for both directions).
int centred_baseline(int center, const TextExtent& ink) { return center + (ink.ascent - ink.descent) / 2; }

// A group name's last word: "S0 GPC3" -> "GPC3".
std::string last_word(const std::string& name) {
  const std::size_t space = name.rfind(' ');
  return space == std::string::npos ? name : name.substr(space + 1);
}

// What every group's last word starts with ("GPC" among GPC0..GPC7), or
// nothing if that would leave some last word empty.
std::string common_prefix(const std::vector<AxisGroup>& groups) {
  std::string prefix;
  bool first = true;
  for (const auto& group : groups) {
    if (group.name.empty()) continue;
    const std::string word = last_word(group.name);
    if (first) {
      prefix = word;
      first = false;
      continue;
    }
    const auto mismatch = std::mismatch(prefix.begin(), prefix.end(), word.begin(), word.end());
    prefix.erase(mismatch.first, prefix.end());
  }
  for (const auto& group : groups)
    if (!group.name.empty() && last_word(group.name).size() == prefix.size()) return {};
  return prefix;
}

// Calls draw(name, centre) for every named group along an axis of `cell`
// pixels a row (column): centre in pixels from the panel's edge, name the
// longest form that fits the group's length.
template <typename Draw>
void each_fitting_name(Font& font, const std::vector<AxisGroup>& groups, int cell, const Draw& draw) {
  for (const auto& group : groups) {
    if (group.name.empty()) continue;
    const int length = (group.end - group.begin) * cell;
    for (const std::string& name : group_name_forms(groups, group.name))
      if (font.measure(name, kGroupLabelPx).width <= length - 4) {
        draw(name, group.begin * cell + length / 2);
        break;  // none fits: better no name than names running into each other
      }
  }
}

}  // namespace

void draw_axis_labels(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel, const Grid& grid) {
  const Rect& p = layout.panels[panel];
  const Rect& rows = layout.row_labels[panel];
  const Rect& cols = layout.column_labels[panel];
  const TextExtent digits = font.measure("0123456789", kUnitLabelPx);
  if (rows.width > 0)
    for (std::size_t i = 0; i < grid.row_count(); i += layout.row_label_step) {
      const std::string& label = grid.rows.labels[i];
      const int width = font.measure(label, kUnitLabelPx).width;
      const int center = static_cast<int>(i) * layout.cell_height + layout.cell_height / 2;
      fill_rect(image, p.x - 1 - kTickLength, p.y + center, kTickLength, 1, kInk);
      font.draw(image, label, kUnitLabelPx, rows.right() - width, centred_baseline(p.y + center, digits), kInk);
    }
  for (std::size_t i = 0; i < grid.column_count(); i += layout.column_label_step) {
    const std::string& label = grid.columns.labels[i];
    const int width = font.measure(label, kUnitLabelPx).width;
    const int center = static_cast<int>(i) * layout.cell_width + layout.cell_width / 2;
    fill_rect(image, p.x + center, p.bottom() + 1, 1, kTickLength, kInk);
    // Rotated, ending next to the panel so that short and long labels line up.
    font.draw(image, label, kUnitLabelPx, centred_baseline(p.x + center, digits), cols.y + width, kInk,
              TextDirection::Up);
  }
}

void draw_group_names(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel, const Grid& grid) {
  const Rect& p = layout.panels[panel];
  const Rect& rows = layout.row_groups[panel];
  const Rect& cols = layout.column_groups[panel];
  const TextExtent line = font.measure("Ag", kGroupLabelPx);
  // Below the panel, centred under their columns.
  if (cols.height > 0)
    each_fitting_name(font, grid.columns.groups, layout.cell_width, [&](const std::string& name, int center) {
      font.draw(image, name, kGroupLabelPx, p.x + center - font.measure(name, kGroupLabelPx).width / 2,
                cols.y + line.ascent, kInk);
    });
  // Left of the row labels, rotated, centred beside their rows.
  if (rows.width > 0)
    each_fitting_name(font, grid.rows.groups, layout.cell_height, [&](const std::string& name, int center) {
      font.draw(image, name, kGroupLabelPx, rows.x + line.ascent,
                p.y + center + font.measure(name, kGroupLabelPx).width / 2, kInk, TextDirection::Up);
    });
}

std::vector<std::string> group_name_forms(const std::vector<AxisGroup>& groups, const std::string& name) {
  std::vector<std::string> forms{name};
  const std::string word = last_word(name);
  if (word != name) forms.push_back(word);
  const std::string prefix = common_prefix(groups);
  if (!prefix.empty() && word.size() > prefix.size()) forms.push_back(word.substr(prefix.size()));
  return forms;
}

void draw_colorbar(Image& image, Font& font, const HeatmapLayout& layout, const ColorScale& scale,
                   const std::string& colormap_name, const std::string& value_label) {
  const Rect& bar = layout.colorbar;
  // High values at the top, as on a chart's y axis.
  for (int y = 0; y < bar.height; ++y) {
    const double t = 1.0 - (y + 0.5) / bar.height;
    fill_rect(image, bar.x, bar.y + y, bar.width, 1, colormap(colormap_name, t));
  }
  frame_rect(image, bar.x, bar.y, bar.width, bar.height, kInk);

  const std::vector<double> ticks = nice_ticks(scale.min, scale.max);
  const std::vector<std::string> labels = format_ticks(ticks);
  const TextExtent digits = font.measure("0123456789", kTickLabelPx);
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    const double t = scale.fraction(ticks[i]);
    if (!(t >= 0.0 && t <= 1.0)) continue;
    const int y = bar.y + static_cast<int>(std::lround((1.0 - t) * (bar.height - 1)));
    fill_rect(image, bar.right() + 1, y, kTickLength, 1, kInk);
    font.draw(image, labels[i], kTickLabelPx, layout.colorbar_labels.x, centred_baseline(y, digits), kInk);
  }

  const TextExtent caption = font.measure(value_label, kValueLabelPx);
  const Rect& area = layout.value_label;
  font.draw(image, value_label, kValueLabelPx, area.x + caption.ascent, bar.y + bar.height / 2 + caption.width / 2,
            kInk, TextDirection::Up);
}

}  // namespace cumap::render
