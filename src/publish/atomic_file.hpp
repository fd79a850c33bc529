#pragma once
#include <filesystem>
#include <string_view>

namespace cumap {

// Writes to a temporary file beside `path`, then renames it over `path`, so
// that readers never see half a file. Throws RuntimeFailure on I/O errors.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

}  // namespace cumap
