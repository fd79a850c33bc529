#include "png_reader.hpp"

#include <cstring>
#include <stdexcept>

#include <png.h>

namespace cumap::test {
namespace {

// The rest of a read begun from a file or from memory.
Image finish_read(png_image& png, const std::string& source) {
  png.format = PNG_FORMAT_RGB;
  Image image;
  image.width = static_cast<int>(png.width);
  image.height = static_cast<int>(png.height);
  image.rgb.resize(PNG_IMAGE_SIZE(png));
  if (png_image_finish_read(&png, nullptr, image.rgb.data(), 0, nullptr) == 0)
    throw std::runtime_error("read_png: " + source + ": " + png.message);
  return image;
}

}  // namespace

Image read_png(const std::filesystem::path& path) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&png, path.c_str()) == 0)
    throw std::runtime_error("read_png: " + path.string() + ": " + png.message);
  return finish_read(png, path.string());
}

Image decode_png(const std::string& bytes) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&png, bytes.data(), bytes.size()) == 0)
    throw std::runtime_error(std::string("decode_png: ") + png.message);
  return finish_read(png, "memory");
}

}  // namespace cumap::test
