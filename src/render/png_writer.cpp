#include <csetjmp>
#include <string>

#include <png.h>

#include "cumap/error.hpp"
#include "render/render.hpp"

namespace cumap {
namespace {

void append_to_string(png_structp png, png_bytep data, png_size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), length);
}

void flush_nothing(png_structp) {}

// libpng reports errors by longjmp; this function holds no objects with
// destructors between setjmp and the calls that may jump, so jumping is safe.
bool encode_rows(png_structp png, png_infop info, const Image& image, std::string* out) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_write_fn(png, out, append_to_string, flush_nothing);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  // Fast deflate: a heatmap's flat blocks compress well at any level, and
  // level 1 encodes a 132-unit map about 2.5x faster than the default for a
  // file about 10% larger (bench/render/README.md). One filter, "up" (a
  // heatmap's rows repeat), instead of libpng's choice per row among five:
  // the two-GPU overview encoded in 0.10-0.16 s instead of 0.24-0.26 s, 2 %
  // larger.
  png_set_compression_level(png, 1);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
  png_write_info(png, info);
  for (int y = 0; y < image.height; ++y)
    png_write_row(png, const_cast<png_bytep>(image.rgb.data() + static_cast<std::size_t>(y) * image.width * 3));
  png_write_end(png, nullptr);
  return true;
}

}  // namespace

std::string encode_png(const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgb.size() != static_cast<std::size_t>(image.width) * image.height * 3)
    throw RuntimeFailure("encode_png: image buffer does not match its size");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    throw RuntimeFailure("libpng: out of memory");
  }
  std::string out;
  const bool ok = encode_rows(png, info, image, &out);
  png_destroy_write_struct(&png, &info);
  if (!ok) throw RuntimeFailure("libpng could not encode the heatmap");
  return out;
}


}  // namespace cumap
