#include "png_reader.hpp"

#include <cstring>
#include <stdexcept>

#include <png.h>

namespace cumap::test {

Image read_png(const std::filesystem::path& path) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&png, path.c_str()) == 0)
    throw std::runtime_error("read_png: " + path.string() + ": " + png.message);
  png.format = PNG_FORMAT_RGB;
  Image image;
  image.width = static_cast<int>(png.width);
  image.height = static_cast<int>(png.height);
  image.rgb.resize(PNG_IMAGE_SIZE(png));
  if (png_image_finish_read(&png, nullptr, image.rgb.data(), 0, nullptr) == 0)
    throw std::runtime_error("read_png: " + path.string() + ": " + png.message);
  return image;
}

}  // namespace cumap::test
