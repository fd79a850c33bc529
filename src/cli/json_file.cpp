#include "cli/json_file.hpp"

#include "cumap/outputs.hpp"

namespace cumap::cli {

void write_json_file(const std::filesystem::path& path, const nlohmann::json& j) {
  const auto dir = path.parent_path();
  if (!dir.empty()) ensure_writable_dir(dir);
  write_file_atomic(path, j.dump(2) + "\n");
}

}  // namespace cumap::cli
