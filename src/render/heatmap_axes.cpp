// What is drawn around the panels: the unit labels and group names along
// their axes, the axis titles, the colorbar with its ticks, and the legend
// for gray cells.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

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

}  // namespace

void draw_axis_labels(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel, const Grid& grid) {
  const Rect& p = layout.panels[panel];
  const Rect& rows = layout.row_labels[panel];
  const Rect& cols = layout.column_labels[panel];
  const TextExtent digits = font.measure("0123456789", kUnitLabelPx);
  if (rows.width > 0 && layout.row_label_step > 0)
    for (std::size_t i = 0; i < grid.row_count(); i += static_cast<std::size_t>(layout.row_label_step)) {
      const std::string& label = grid.rows.labels[i];
      const int width = font.measure(label, kUnitLabelPx).width;
      const int center = static_cast<int>(i) * layout.cell_height + layout.cell_height / 2;
      fill_rect(image, p.x - 1 - kTickLength, p.y + center, kTickLength, 1, kInk);
      font.draw(image, label, kUnitLabelPx, rows.right() - width, centred_baseline(p.y + center, digits), kInk);
    }
  if (cols.height > 0 && layout.column_label_step > 0)
    for (std::size_t i = 0; i < grid.column_count(); i += static_cast<std::size_t>(layout.column_label_step)) {
      const std::string& label = grid.columns.labels[i];
      const int width = font.measure(label, kUnitLabelPx).width;
      const int center = static_cast<int>(i) * layout.cell_width + layout.cell_width / 2;
      fill_rect(image, p.x + center, p.bottom() + 1, 1, kTickLength, kInk);
      // Rotated, ending next to the panel so that short and long labels line up.
      font.draw(image, label, kUnitLabelPx, centred_baseline(p.x + center, digits), cols.y + width, kInk,
                TextDirection::Up);
    }
}

void draw_group_names(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel) {
  const Rect& p = layout.panels[panel];
  const Rect& rows = layout.row_groups[panel];
  const Rect& cols = layout.column_groups[panel];
  const TextExtent line = font.measure("Ag", kGroupLabelPx);
  // Below the panel, lane 0 nearest it.
  if (cols.height > 0)
    for (const GroupLabel& label : layout.column_group_labels[panel])
      font.draw(image, label.text, kGroupLabelPx, p.x + label.offset,
                cols.y + label.lane * layout.group_lane_pitch + line.ascent, kInk);
  // Left of the row labels, rotated (reading upwards), lane 0 nearest the panel.
  if (rows.width > 0)
    for (const GroupLabel& label : layout.row_group_labels[panel])
      font.draw(image, label.text, kGroupLabelPx,
                rows.right() - (label.lane + 1) * layout.group_lane_pitch + line.ascent,
                p.y + label.offset + label.width, kInk, TextDirection::Up);
}

void draw_axis_titles(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel,
                      const HeatmapStyle& style) {
  const Rect& p = layout.panels[panel];
  const Rect& rows = layout.row_titles[panel];
  const Rect& cols = layout.column_titles[panel];
  const TextExtent line = font.measure("Ag", kAxisTitlePx);
  if (cols.height > 0 && !style.column_title.empty()) {
    const int width = font.measure(style.column_title, kAxisTitlePx).width;
    font.draw(image, style.column_title, kAxisTitlePx, p.x + (p.width - width) / 2, cols.y + line.ascent, kInk);
  }
  if (rows.width > 0 && !style.row_title.empty()) {
    const int width = font.measure(style.row_title, kAxisTitlePx).width;
    font.draw(image, style.row_title, kAxisTitlePx, rows.x + line.ascent, p.y + (p.height + width) / 2, kInk,
              TextDirection::Up);
  }
}

std::vector<GroupLabel> place_group_labels(const std::vector<AxisGroup>& groups, int cell,
                                           const std::function<int(const std::string&)>& width_of) {
  // Four lanes hold the names of four neighbouring groups of 2 units at
  // 6 px a unit (an H100's GPC8..GPC11 on one side) in full.
  constexpr int kPreferredLanes = 4;
  constexpr int kSpacing = 6;  // blank between two names in a lane
  const int axis = groups.empty() ? 0 : groups.back().end * cell;
  std::vector<int> lane_end;  // where the last name in each lane ends
  // The lowest lane below `limit` where a name starting at `start` clears
  // the one before it, or -1.
  const auto free_lane = [&](int start, std::size_t limit) {
    for (std::size_t lane = 0; lane < limit; ++lane)
      if (lane >= lane_end.size() || lane_end[lane] + kSpacing <= start) return static_cast<int>(lane);
    return -1;
  };
  std::vector<GroupLabel> labels;
  for (const AxisGroup& group : groups) {
    if (group.name.empty()) continue;
    const int center = (group.begin + group.end) * cell / 2;
    const auto place = [&](const std::string& text, std::size_t lanes) {
      const int width = width_of(text);
      // Centred on the group, moved inwards where it would stick out of the axis.
      const int start = std::clamp(center - width / 2, 0, std::max(0, axis - width));
      const int lane = free_lane(start, lanes);
      return lane < 0 ? std::optional<GroupLabel>{} : GroupLabel{text, start, width, lane};
    };
    const std::vector<std::string> forms = group_name_forms(groups, group.name);
    std::optional<GroupLabel> label;
    for (const std::string& form : forms)
      if ((label = place(form, kPreferredLanes))) break;
    if (!label) label = place(forms.back(), lane_end.size() + 1);  // a lane past the rest is always free
    const auto lane = static_cast<std::size_t>(label->lane);
    if (lane == lane_end.size()) lane_end.push_back(0);
    lane_end[lane] = label->offset + label->width;
    labels.push_back(*label);
  }
  return labels;
}

int lane_count(const std::vector<GroupLabel>& labels) {
  int lanes = 0;
  for (const GroupLabel& label : labels) lanes = std::max(lanes, label.lane + 1);
  return lanes;
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

std::string gray_legend(const std::vector<Grid>& grids) {
  bool diagonal = false, missing = false;
  for (const Grid& grid : grids) {
    diagonal = diagonal || grid.gray_diagonal;
    for (std::size_t r = 0; r < grid.row_count() && !missing; ++r)
      for (std::size_t c = 0; c < grid.column_count(); ++c)
        if (!(grid.gray_diagonal && r == c) && !std::isfinite(grid.at(r, c))) {
          missing = true;
          break;
        }
  }
  if (diagonal && missing) return "gray: a unit with itself (the diagonal), or no value (not measured or timed out)";
  if (diagonal) return "gray: a unit with itself (the diagonal)";
  if (missing) return "gray: no value (not measured or timed out)";
  return {};
}

void draw_legend(Image& image, Font& font, const HeatmapLayout& layout, const std::string& text) {
  const Rect& area = layout.legend;
  if (area.width <= 0 || text.empty()) return;
  const int swatch = area.height;
  fill_rect(image, area.x, area.y, swatch, swatch, kMissingGray);
  frame_rect(image, area.x, area.y, swatch, swatch, kInk);
  const TextExtent line = font.measure("Ag", kLegendPx);
  font.draw(image, text, kLegendPx, area.x + swatch + kLegendSwatchGap,
            area.y + (swatch + line.ascent - line.descent) / 2, kInk);
}

}  // namespace cumap::render
