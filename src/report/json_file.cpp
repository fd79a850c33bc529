#include "report/json_file.hpp"

#include <optional>

#include "report/output_directory.hpp"
#include "report/atomic_file.hpp"

namespace cumap {

void write_json_file(const std::filesystem::path& path, const nlohmann::json& j) {
  // The folder is made (and unmade if the file cannot be written), then the
  // path is checked as a file: a directory in its place is bad input.
  const auto dir = path.parent_path();
  std::optional<OutputDirectory> folder;
  if (!dir.empty()) folder.emplace(dir);
  check_output_file(path);
  if (folder) folder->write(path.filename(), j.dump(2) + "\n");
  else write_file_atomic(path, j.dump(2) + "\n");
  if (folder) folder->keep();
}

}  // namespace cumap
