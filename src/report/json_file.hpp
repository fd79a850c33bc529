#pragma once
#include <filesystem>

#include <nlohmann/json.hpp>

namespace cumap {

// Writes `j` to `path` for a --json option: the folder is created if needed,
// an unwritable one is bad input (exit 2), the file appears whole or not at all.
void write_json_file(const std::filesystem::path& path, const nlohmann::json& j);

}  // namespace cumap
