#include "publish/json_file.hpp"

#include "publish/atomic_file.hpp"
#include "publish/output_directory.hpp"

namespace cumap {

std::string json_file_text(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void write_json_file(const std::filesystem::path& path, const nlohmann::json& j) {
  // Like render's -o: a file in a directory that exists; a missing directory
  // or a directory in the file's place is bad input.
  check_output_file(path);
  write_file_atomic(path, json_file_text(j));
}

}  // namespace cumap
