#pragma once
#include <filesystem>
#include <string>

#include "render/render.hpp"

namespace cumap::test {

// Decodes a PNG into 8-bit RGB with libpng's simplified API; throws
// std::runtime_error if it is not a readable PNG. From a file, or from the
// bytes encode_png made.
Image read_png(const std::filesystem::path& path);
Image decode_png(const std::string& bytes);

}  // namespace cumap::test
