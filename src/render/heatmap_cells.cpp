#include <algorithm>

#include "render/canvas.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap::render {

void draw_cells(Image& image, const Rect& panel, int cell, const ValueMatrix& matrix, const ColorScale& scale,
                const std::string& colormap_name) {
  const int n = static_cast<int>(matrix.size());
  // Parallel over matrix rows: at 1024 units a panel is a million colormap
  // look-ups and pixel writes, and rows touch disjoint bands of the image.
#pragma omp parallel for schedule(static)
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const double v = matrix.at(r, c);
      const Rgb color = r == c ? kMissingGray : colormap(colormap_name, scale.fraction(v));
      for (int dy = 0; dy < cell; ++dy) {
        const auto row_start = static_cast<std::size_t>(panel.y + r * cell + dy) * image.width;
        for (int dx = 0; dx < cell; ++dx) {
          const auto i = (row_start + panel.x + c * cell + dx) * 3;
          image.rgb[i] = color.r;
          image.rgb[i + 1] = color.g;
          image.rgb[i + 2] = color.b;
        }
      }
    }
  }
}

void draw_group_separators(Image& image, const Rect& panel, int cell, const std::vector<GroupSpan>& spans) {
  // One pixel on the first cell of each new group, so the line sits on the
  // boundary without making the picture wider.
  for (std::size_t s = 1; s < spans.size(); ++s) {
    const int offset = spans[s].begin * cell;
    fill_rect(image, panel.x + offset, panel.y, 1, panel.height, kSeparator);
    fill_rect(image, panel.x, panel.y + offset, panel.width, 1, kSeparator);
  }
}

}  // namespace cumap::render
