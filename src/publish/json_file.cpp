#include "publish/json_file.hpp"

#include "publish/atomic_file.hpp"
#include "publish/output_directory.hpp"

namespace cumap {

void write_json_file(const std::filesystem::path& path, const nlohmann::json& j) {
  // Like render's -o: a file in a directory that exists; a missing directory
  // or a directory in the file's place is bad input.
  check_output_file(path);
  write_file_atomic(path, j.dump(2) + "\n");
}

}  // namespace cumap
