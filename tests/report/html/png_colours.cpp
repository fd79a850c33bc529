// png_colours FILE [MIN]: prints how many distinct colours the PNG has and
// its size; exits 1 when fewer than MIN (default 2): a blank screenshot has one.
#include <png.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: png_colours FILE [MIN]\n");
    return 2;
  }
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, argv[1])) {
    std::fprintf(stderr, "png_colours: %s: %s\n", argv[1], image.message);
    return 2;
  }
  image.format = PNG_FORMAT_RGB;
  std::vector<png_byte> rgb(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, rgb.data(), 0, nullptr)) {
    std::fprintf(stderr, "png_colours: %s: %s\n", argv[1], image.message);
    return 2;
  }
  std::set<unsigned> colours;
  for (std::size_t i = 0; i + 2 < rgb.size(); i += 3) colours.insert(rgb[i] << 16 | rgb[i + 1] << 8 | rgb[i + 2]);
  const std::size_t min = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2;
  std::printf("%s: %ux%u, %zu distinct colours\n", argv[1], image.width, image.height, colours.size());
  return colours.size() >= min ? 0 : 1;
}
