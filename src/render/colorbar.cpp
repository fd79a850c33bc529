#include <cmath>
#include <string>
#include <vector>

#include "render/canvas.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap::render {

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
    font.draw(image, labels[i], kTickLabelPx, layout.colorbar_labels.x, y + (digits.ascent - digits.descent) / 2, kInk);
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
