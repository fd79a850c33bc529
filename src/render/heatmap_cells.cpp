#include <algorithm>

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
      const Rgb color = diagonal ? kMissingGray : colormap(colormap_name, scale.fraction(grid.at(r, c)));
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

}  // namespace cumap::render
