#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "render/canvas.hpp"

namespace cumap {

Rgb Image::pixel(int x, int y) const {
  if (x < 0 || y < 0 || x >= width || y >= height) throw std::out_of_range("Image::pixel outside the image");
  const auto i = (static_cast<std::size_t>(y) * width + x) * 3;
  return {rgb[i], rgb[i + 1], rgb[i + 2]};
}

namespace render {

Image blank_image(int width, int height, Rgb fill) {
  // A net under the layouts: a picture of 1056 units a side is a few
  // thousand pixels wide; one past these sizes is a layout gone wrong, to
  // be refused rather than allocated (gigabytes) and encoded.
  constexpr long long kMaxSide = 1 << 15, kMaxPixels = 1LL << 28;
  if (width <= 0 || height <= 0 || width > kMaxSide || height > kMaxSide ||
      static_cast<long long>(width) * height > kMaxPixels)
    throw RuntimeFailure(fmt::format("a picture of {} x {} pixels is larger than cumap draws (at most {} a side)",
                                     width, height, kMaxSide));
  Image image;
  image.width = width;
  image.height = height;
  image.rgb.resize(static_cast<std::size_t>(width) * height * 3);
  for (std::size_t i = 0; i < image.rgb.size(); i += 3) {
    image.rgb[i] = fill.r;
    image.rgb[i + 1] = fill.g;
    image.rgb[i + 2] = fill.b;
  }
  return image;
}

void set_pixel(Image& image, int x, int y, Rgb color) {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
  const auto i = (static_cast<std::size_t>(y) * image.width + x) * 3;
  image.rgb[i] = color.r;
  image.rgb[i + 1] = color.g;
  image.rgb[i + 2] = color.b;
}

void blend_pixel(Image& image, int x, int y, Rgb color, int alpha) {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height || alpha <= 0) return;
  const auto i = (static_cast<std::size_t>(y) * image.width + x) * 3;
  const auto mix = [alpha](std::uint8_t under, std::uint8_t over) {
    return static_cast<std::uint8_t>((under * (255 - alpha) + over * alpha + 127) / 255);
  };
  image.rgb[i] = mix(image.rgb[i], color.r);
  image.rgb[i + 1] = mix(image.rgb[i + 1], color.g);
  image.rgb[i + 2] = mix(image.rgb[i + 2], color.b);
}

void fill_rect(Image& image, int x, int y, int width, int height, Rgb color) {
  const int x0 = std::max(0, x), x1 = std::min(image.width, x + width);
  const int y0 = std::max(0, y), y1 = std::min(image.height, y + height);
  for (int py = y0; py < y1; ++py)
    for (int px = x0; px < x1; ++px) set_pixel(image, px, py, color);
}

void frame_rect(Image& image, int x, int y, int width, int height, Rgb color) {
  fill_rect(image, x - 1, y - 1, width + 2, 1, color);
  fill_rect(image, x - 1, y + height, width + 2, 1, color);
  fill_rect(image, x - 1, y, 1, height, color);
  fill_rect(image, x + width, y, 1, height, color);
}

}  // namespace render
}  // namespace cumap
