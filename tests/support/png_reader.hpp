#pragma once
#include <filesystem>

#include "cumap/render.hpp"

namespace cumap::test {

// Decodes a PNG file into 8-bit RGB with libpng's simplified API; throws
// std::runtime_error if it is not a readable PNG.
Image read_png(const std::filesystem::path& path);

}  // namespace cumap::test
