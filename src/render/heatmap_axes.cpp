// What is drawn around the panels: the unit labels and group names along
// their axes, the axis titles, the colorbar with its ticks, and the legend
// for gray cells.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/display_layout.hpp"
#include "render/canvas.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap::render {
namespace {

// Baseline that centres digits' ink on `center` (works for both directions).
int centred_baseline(int center, const TextExtent& ink) { return center + (ink.ascent - ink.descent) / 2; }

// Blank between two names in a lane: wide enough that neighbours never
// read as one name ("GPC10 11").
constexpr int kNameSpacing = 10;
// Between a band's line and its name, and inside each end of the band.
constexpr int kBandPadding = 4;
constexpr int kBandTick = 3;  // a band's end ticks reach this far either side of its line
constexpr Rgb kBandInk{110, 110, 110};

// A group's own name, without the device and side the bands show:
// "g1 S0 GPC3" -> "GPC3".
std::string own_name(const std::string& name) { return split_display_group_name(name).group; }

// What every group's own name starts with, short of its number ("GPC" among
// GPC0..GPC11, also among GPC10 and GPC11 alone), or nothing if that would
// leave some name empty.
std::string common_stem(const std::vector<AxisGroup>& groups) {
  std::string stem;
  bool first = true;
  for (const auto& group : groups) {
    if (group.name.empty()) continue;
    const std::string own = own_name(group.name);
    if (first) {
      stem = own;
      first = false;
      continue;
    }
    const auto mismatch = std::mismatch(stem.begin(), stem.end(), own.begin(), own.end());
    stem.erase(mismatch.first, stem.end());
  }
  while (!stem.empty() && std::isdigit(static_cast<unsigned char>(stem.back()))) stem.pop_back();
  for (const auto& group : groups)
    if (!group.name.empty() && own_name(group.name).size() <= stem.size()) return {};
  return stem;
}

// A band's line along its run, broken where its name is, with a tick at
// each end; `along` is where the axis starts, `across` the line's position.
void draw_band(Image& image, const GroupLabel& band, int along, int across, bool vertical) {
  const int first = along + band.band_offset + 1, last = along + band.band_offset + band.band_width - 2;
  const auto line = [&](int from, int to) {
    if (to < from) return;
    if (vertical) fill_rect(image, across, from, 1, to - from + 1, kBandInk);
    else fill_rect(image, from, across, to - from + 1, 1, kBandInk);
  };
  line(first, along + band.offset - kBandPadding - 1);
  line(along + band.offset + band.width + kBandPadding, last);
  for (const int end : {first, last})
    if (vertical) fill_rect(image, across - kBandTick, end, 2 * kBandTick + 1, 1, kBandInk);
    else fill_rect(image, end, across - kBandTick, 1, 2 * kBandTick + 1, kBandInk);
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
  // Bands run through the middle of their names' digits and capitals.
  const int middle = font.measure("0123456789", kGroupLabelPx).ascent / 2;
  // Below the panel, lane 0 nearest it.
  if (cols.height > 0)
    for (const GroupLabel& label : layout.column_group_labels[panel]) {
      const int baseline = cols.y + label.lane * layout.group_lane_pitch + line.ascent;
      if (label.band_width > 0) draw_band(image, label, p.x, baseline - middle, false);
      font.draw(image, label.text, kGroupLabelPx, p.x + label.offset, baseline, kInk);
    }
  // Left of the row labels, rotated (reading upwards), lane 0 nearest the panel.
  if (rows.width > 0)
    for (const GroupLabel& label : layout.row_group_labels[panel]) {
      const int baseline = rows.right() - (label.lane + 1) * layout.group_lane_pitch + line.ascent;
      if (label.band_width > 0) draw_band(image, label, p.y, baseline - middle, true);
      font.draw(image, label.text, kGroupLabelPx, baseline, p.y + label.offset + label.width, kInk, TextDirection::Up);
    }
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
  const int axis = groups.empty() ? 0 : groups.back().end * cell;
  std::vector<DisplayGroupName> parts;
  for (const AxisGroup& group : groups) parts.push_back(split_display_group_name(group.name));
  std::vector<GroupLabel> labels;

  // The groups' own names, unless every one is "other" (no topology: the
  // bands say all there is).
  const bool own_names = std::any_of(parts.begin(), parts.end(), [&](const DisplayGroupName& n) {
    return !n.group.empty() && n.group != "other";
  });
  std::vector<int> lane_end;  // where the last name in each lane ends
  // The lowest lane below `limit` where a name starting at `start` clears
  // the one before it, or -1.
  const auto free_lane = [&](int start, std::size_t limit) {
    for (std::size_t lane = 0; lane < limit; ++lane)
      if (lane >= lane_end.size() || lane_end[lane] + kNameSpacing <= start) return static_cast<int>(lane);
    return -1;
  };
  // A name's letters and its number ("pair" and 2 in "pair2"); no number: -1.
  const auto stem_and_number = [](const std::string& name) -> std::pair<std::string, int> {
    std::size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
    if (digits == 0 || digits == name.size() || name.size() - digits > 6) return {name, -1};
    return {name.substr(0, digits), std::stoi(name.substr(digits))};
  };
  // Where the run of neighbours starting at g ends that is named once:
  // groups of one device and side, numbered in turn under one stem, each
  // narrower than its name (an H100's four groups of 2 SMs, pair0..pair3,
  // at 3 px a unit: four staggered names crowd, "pair0-3" reads). g + 1
  // where there is no such run.
  const auto run_end = [&](std::size_t g) {
    const auto narrow = [&](std::size_t i) {
      return !groups[i].name.empty() && (groups[i].end - groups[i].begin) * cell < width_of(parts[i].group);
    };
    const auto [stem, number] = stem_and_number(parts[g].group);
    std::size_t h = g + 1;
    if (number < 0 || !narrow(g)) return h;
    while (h < groups.size() && narrow(h) && parts[h].device == parts[g].device && parts[h].side == parts[g].side &&
           stem_and_number(parts[h].group) == std::pair(stem, number + static_cast<int>(h - g)))
      ++h;
    return h - g >= 2 ? h : g + 1;
  };
  for (std::size_t g = 0, next = 0; own_names && g < groups.size(); g = next) {
    next = run_end(g);
    const AxisGroup& group = groups[g];
    if (group.name.empty() || parts[g].group.empty()) continue;
    const int center = (group.begin + groups[next - 1].end) * cell / 2;
    const auto place = [&](const std::string& text, std::size_t lanes) {
      const int width = width_of(text);
      // Centred on the group, moved inwards where it would stick out of the axis.
      const int start = std::clamp(center - width / 2, 0, std::max(0, axis - width));
      const int lane = free_lane(start, lanes);
      return lane < 0 ? std::optional<GroupLabel>{} : GroupLabel{text, start, width, lane};
    };
    std::vector<std::string> forms = group_name_forms(groups, group.name);
    if (next > g + 1)
      forms = {fmt::format("{}{}-{}", stem_and_number(parts[g].group).first, stem_and_number(parts[g].group).second,
                           stem_and_number(parts[next - 1].group).second)};
    std::optional<GroupLabel> label;
    for (const std::string& form : forms)
      if ((label = place(form, kPreferredLanes))) break;
    if (!label) label = place(forms.back(), lane_end.size() + 1);  // a lane past the rest is always free
    const auto lane = static_cast<std::size_t>(label->lane);
    if (lane == lane_end.size()) lane_end.push_back(0);
    lane_end[lane] = label->offset + label->width;
    labels.push_back(*label);
  }

  // Then the bands, each level in a lane of its own: sides, then devices
  // outermost. A band spans a run of groups of one side (of one device), or
  // of one device, and is named in the longest form that fits inside it;
  // one too narrow for any is left out (the separators still mark it).
  int lanes = lane_count(labels);
  const auto add_bands = [&](auto key_of, auto forms_of) {
    bool placed = false;
    for (std::size_t i = 0; i < groups.size();) {
      const auto key = key_of(parts[i]);
      std::size_t j = i + 1;
      while (j < groups.size() && key_of(parts[j]) == key) ++j;
      const int begin = groups[i].begin * cell, width = groups[j - 1].end * cell - begin;
      if (key && !groups[i].name.empty())
        for (const std::string& form : forms_of(*key)) {
          const int text_width = width_of(form);
          if (text_width + 2 * kBandPadding + 2 > width) continue;
          labels.push_back({form, begin + (width - text_width) / 2, text_width, lanes, begin, width});
          placed = true;
          break;
        }
      i = j;
    }
    if (placed) ++lanes;
  };
  add_bands([](const DisplayGroupName& n) { return n.side ? std::optional(std::pair(n.device.value_or(-1), *n.side))
                                                          : std::nullopt; },
            [](const std::pair<int, int>& side) {
              return std::vector<std::string>{"side " + std::to_string(side.second), "S" + std::to_string(side.second)};
            });
  add_bands([](const DisplayGroupName& n) { return n.device; },
            [](int device) { return std::vector<std::string>{"GPU " + std::to_string(device), "g" + std::to_string(device)}; });
  return labels;
}

int lane_count(const std::vector<GroupLabel>& labels) {
  int lanes = 0;
  for (const GroupLabel& label : labels) lanes = std::max(lanes, label.lane + 1);
  return lanes;
}

std::vector<std::string> group_name_forms(const std::vector<AxisGroup>& groups, const std::string& name) {
  const std::string own = own_name(name);
  std::vector<std::string> forms{own};
  const std::string stem = common_stem(groups);
  if (!stem.empty() && own.size() > stem.size() && own.starts_with(stem)) forms.push_back(own.substr(stem.size()));
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
  bool diagonal = false, missing = false, timed_out = false;
  for (const Grid& grid : grids) {
    diagonal = diagonal || grid.gray_diagonal;
    for (std::size_t r = 0; r < grid.row_count(); ++r)
      for (std::size_t c = 0; c < grid.column_count(); ++c) {
        const double v = grid.at(r, c);
        if ((grid.gray_diagonal && r == c) || std::isfinite(v)) continue;
        if (std::isinf(v) && v > 0) timed_out = true;
        else missing = true;
      }
  }
  // A run's own pictures mark timed-out cells; one redrawn from a CSV cannot
  // tell them from cells never measured.
  std::string text;
  if (diagonal && missing) text = "gray: a unit with itself (the diagonal), or no value (not measured or timed out)";
  else if (diagonal) text = "gray: a unit with itself (the diagonal)";
  else if (missing) text = "gray: no value (not measured or timed out)";
  if (timed_out) text += text.empty() ? "dark gray: timed out" : "; dark gray: timed out";
  return text;
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
