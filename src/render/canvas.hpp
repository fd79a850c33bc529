#pragma once
#include "render/render.hpp"

// Pixel-level drawing on an Image. Coordinates outside the image are clipped,
// so callers can draw near the edges without checks.
namespace cumap::render {

Image blank_image(int width, int height, Rgb fill);
void set_pixel(Image& image, int x, int y, Rgb color);
// Mixes `color` over the pixel with coverage alpha in [0,255] (anti-aliased text).
void blend_pixel(Image& image, int x, int y, Rgb color, int alpha);
void fill_rect(Image& image, int x, int y, int width, int height, Rgb color);
// A one-pixel rectangle outline just outside the area (x, y, width, height).
void frame_rect(Image& image, int x, int y, int width, int height, Rgb color);

inline constexpr Rgb kWhite{255, 255, 255};
inline constexpr Rgb kBlack{0, 0, 0};
inline constexpr Rgb kInk{34, 34, 34};  // text and axes: softer than pure black

}  // namespace cumap::render
