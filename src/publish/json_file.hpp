#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace cumap {

// A JSON file's text as cumap writes every one (meta.json, homes.json,
// topology.json, --json files, `cumap summary --format json`): indented by
// two, one line break at the end. Text that is not UTF-8 (a path, a host
// or device name) is written with U+FFFD in place of each bad byte: JSON
// must be UTF-8, and a run must not fail on it after measuring.
std::string json_file_text(const nlohmann::json& j);

// Writes `j` to `path` for a --json option: a path check_output_file refuses
// (its directory missing or unwritable, a directory in its place) is bad
// input (exit 2); the file appears whole or not at all. Commands check the
// path with check_output_file before their work too.
void write_json_file(const std::filesystem::path& path, const nlohmann::json& j);

}  // namespace cumap
