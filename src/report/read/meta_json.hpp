#pragma once
// A run's meta.json read from disk: what `cumap summary` starts from, for a
// map or another command's output set. The summaries in it are read by
// report/summary_json.hpp.
#include <filesystem>

#include <nlohmann/json.hpp>

namespace cumap {

// DIR/meta.json (or that file itself when `path` names a file), read and
// parsed. UsageError, one line, for a path that does not exist, a directory
// without meta.json, and a file that is not JSON.
struct OutputMeta {
  std::filesystem::path file;  // the meta.json read
  nlohmann::json meta;
};
OutputMeta read_output_meta(const std::filesystem::path& path);

}  // namespace cumap
