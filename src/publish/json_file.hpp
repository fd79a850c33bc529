#pragma once
#include <filesystem>

#include <nlohmann/json.hpp>

namespace cumap {

// Writes `j` to `path` for a --json option: a path check_output_file refuses
// (its directory missing or unwritable, a directory in its place) is bad
// input (exit 2); the file appears whole or not at all. Commands check the
// path with check_output_file before their work too.
void write_json_file(const std::filesystem::path& path, const nlohmann::json& j);

}  // namespace cumap
