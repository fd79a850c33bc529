#include <algorithm>
#include <string>

#include "render/canvas.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap::render {
namespace {

// Baseline that centres digits' ink on `center` (works for both directions).
int centred_baseline(int center, const TextExtent& ink) { return center + (ink.ascent - ink.descent) / 2; }

// The part of every name after their common prefix ("GPC3" -> "3" among
// GPC0..GPC7), or nothing if that would leave some name empty.
std::string common_prefix(const std::vector<GroupSpan>& spans) {
  std::string prefix;
  bool first = true;
  for (const auto& span : spans) {
    if (span.name.empty()) continue;
    if (first) {
      prefix = span.name;
      first = false;
      continue;
    }
    const auto mismatch = std::mismatch(prefix.begin(), prefix.end(), span.name.begin(), span.name.end());
    prefix.erase(mismatch.first, prefix.end());
  }
  for (const auto& span : spans)
    if (!span.name.empty() && span.name.size() == prefix.size()) return {};
  return prefix;
}

// The longest of name, name without the shared prefix, that fits `room`; empty if neither does.
std::string fitting_name(Font& font, const std::string& name, const std::string& prefix, int room) {
  if (font.measure(name, kGroupLabelPx).width <= room) return name;
  if (!prefix.empty()) {
    std::string shorter = name.substr(prefix.size());
    if (font.measure(shorter, kGroupLabelPx).width <= room) return shorter;
  }
  return {};
}

}  // namespace

void draw_unit_labels(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel,
                      const std::vector<int>& units) {
  const Rect& p = layout.panels[panel];
  const Rect& rows = layout.row_labels[panel];
  const Rect& cols = layout.column_labels[panel];
  const TextExtent digits = font.measure("0123456789", kUnitLabelPx);
  for (std::size_t i = 0; i < units.size(); i += layout.label_step) {
    const std::string id = std::to_string(units[i]);
    const int width = font.measure(id, kUnitLabelPx).width;
    const int center = static_cast<int>(i) * layout.cell + layout.cell / 2;
    if (rows.width > 0) {
      fill_rect(image, p.x - 1 - kTickLength, p.y + center, kTickLength, 1, kInk);
      font.draw(image, id, kUnitLabelPx, rows.right() - width, centred_baseline(p.y + center, digits), kInk);
    }
    fill_rect(image, p.x + center, p.bottom() + 1, 1, kTickLength, kInk);
    // Rotated, ending next to the panel so that short and long ids line up.
    font.draw(image, id, kUnitLabelPx, centred_baseline(p.x + center, digits), cols.y + width, kInk,
              TextDirection::Up);
  }
}

void draw_group_names(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel,
                      const std::vector<GroupSpan>& spans) {
  const Rect& p = layout.panels[panel];
  const Rect& rows = layout.row_groups[panel];
  const Rect& cols = layout.column_groups[panel];
  const TextExtent line = font.measure("Ag", kGroupLabelPx);
  const std::string prefix = common_prefix(spans);
  for (const auto& span : spans) {
    if (span.name.empty()) continue;
    const int begin = span.begin * layout.cell;
    const int length = (span.end - span.begin) * layout.cell;
    const std::string name = fitting_name(font, span.name, prefix, length - 4);
    if (name.empty()) continue;  // better no name than names running into each other
    const int width = font.measure(name, kGroupLabelPx).width;
    const int center = begin + length / 2;
    if (cols.height > 0)
      font.draw(image, name, kGroupLabelPx, p.x + center - width / 2, cols.y + line.ascent, kInk);
    if (rows.width > 0)
      font.draw(image, name, kGroupLabelPx, rows.x + line.ascent, p.y + center + width / 2, kInk,
                TextDirection::Up);
  }
}

}  // namespace cumap::render
