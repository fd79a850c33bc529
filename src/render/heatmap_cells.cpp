// What is drawn inside a panel: its cells' colors, the lines between
// groups, and the values printed in cells large enough to hold them.
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "render/canvas.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap::render {

void draw_cells(Image& image, const HeatmapLayout& layout, std::size_t panel, const Grid& grid,
                const ColorScale& scale, const std::string& colormap_name) {
  const Rect& area = layout.panels[panel];
  const int rows = static_cast<int>(grid.row_count());
  const int columns = static_cast<int>(grid.column_count());
  const int cell_width = layout.cell_width;
  const int cell_height = layout.cell_height;
  // Parallel over rows: at 1024 units a panel is a million colormap look-ups
  // and pixel writes, and rows touch disjoint bands of the image.
#pragma omp parallel for schedule(static)
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      const bool diagonal = grid.gray_diagonal && r == c;
      const double v = grid.at(r, c);
      const Rgb color = diagonal                     ? kMissingGray
                        : std::isinf(v) && v > 0     ? kTimedOutGray
                                                     : colormap(colormap_name, scale.fraction(v));
      for (int dy = 0; dy < cell_height; ++dy) {
        const auto row_start = static_cast<std::size_t>(area.y + r * cell_height + dy) * image.width;
        for (int dx = 0; dx < cell_width; ++dx) {
          const auto i = (row_start + area.x + c * cell_width + dx) * 3;
          image.rgb[i] = color.r;
          image.rgb[i + 1] = color.g;
          image.rgb[i + 2] = color.b;
        }
      }
    }
  }
}

void draw_group_separators(Image& image, const HeatmapLayout& layout, std::size_t panel, const Grid& grid) {
  const Rect& area = layout.panels[panel];
  // One pixel on the first cell of each new group, so the line sits on the
  // boundary without making the picture wider.
  for (std::size_t s = 1; s < grid.columns.groups.size(); ++s)
    fill_rect(image, area.x + grid.columns.groups[s].begin * layout.cell_width, area.y, 1, area.height, kSeparator);
  for (std::size_t s = 1; s < grid.rows.groups.size(); ++s)
    fill_rect(image, area.x, area.y + grid.rows.groups[s].begin * layout.cell_height, area.width, 1, kSeparator);
}

namespace {

// Values printed in the cells: their text, and ink that contrasts with the cell.

std::string format_value(double v, int decimals) { return fmt::format("{:.{}f}", v, decimals); }

// Blank space kept between a value's text and its cell's edges.
int cell_padding(int cell) { return std::max(3, cell / 10); }

double linear_channel(std::uint8_t c) {
  const double s = c / 255.0;
  return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
}

double relative_luminance(Rgb c) {
  return 0.2126 * linear_channel(c.r) + 0.7152 * linear_channel(c.g) + 0.0722 * linear_channel(c.b);
}

double contrast(Rgb a, Rgb b) {
  const double la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace

Rgb text_color_on(Rgb background) {
  return contrast(background, kInk) >= contrast(background, kWhite) ? kInk : kWhite;
}

std::optional<int> cell_value_decimals(Font& font, const HeatmapLayout& layout, const std::vector<Grid>& grids) {
  if (layout.cell_value_px <= 0) return std::nullopt;
  double largest = 0.0;
  bool any = false;
  for (const auto& grid : grids)
    for (std::size_t r = 0; r < grid.row_count(); ++r)
      for (std::size_t c = 0; c < grid.column_count(); ++c)
        if (grid.measured(r, c)) {
          largest = std::max(largest, std::abs(grid.at(r, c)));
          any = true;
        }
  if (!any) return std::nullopt;
  // About four significant digits: 0.25 -> "0.25", 189.7 -> "189.7", 1234 -> "1234".
  const int room = layout.cell_width - 2 * cell_padding(layout.cell_width);
  for (int decimals = largest >= 1000.0 ? 0 : largest >= 10.0 ? 1 : 2; decimals >= 0; --decimals) {
    int widest = 0;
    for (const auto& grid : grids)
      for (std::size_t r = 0; r < grid.row_count(); ++r)
        for (std::size_t c = 0; c < grid.column_count(); ++c)
          if (grid.measured(r, c))
            widest = std::max(widest, font.measure(format_value(grid.at(r, c), decimals), layout.cell_value_px).width);
    if (widest <= room) return decimals;
  }
  return std::nullopt;  // even whole numbers would spill into the neighbours
}

void draw_cell_values(Image& image, Font& font, const HeatmapLayout& layout, std::size_t panel, const Grid& grid,
                      int decimals) {
  const Rect& area = layout.panels[panel];
  const int px = layout.cell_value_px;
  const TextExtent digits = font.measure("0123456789", px);
  for (std::size_t r = 0; r < grid.row_count(); ++r)
    for (std::size_t c = 0; c < grid.column_count(); ++c) {
      if (!grid.measured(r, c)) continue;
      const std::string text = format_value(grid.at(r, c), decimals);
      const int center_x = area.x + static_cast<int>(c) * layout.cell_width + layout.cell_width / 2;
      const int center_y = area.y + static_cast<int>(r) * layout.cell_height + layout.cell_height / 2;
      const Rgb ink = text_color_on(image.pixel(center_x, center_y));
      font.draw(image, text, px, center_x - font.measure(text, px).width / 2,
                center_y + (digits.ascent - digits.descent) / 2, ink);
    }
}

}  // namespace cumap::render
