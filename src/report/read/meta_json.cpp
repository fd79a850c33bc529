#include "report/read/meta_json.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "cumap/error.hpp"

namespace cumap {

OutputMeta read_output_meta(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const std::string shown = printable_excerpt(path.string(), 160);
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) throw UsageError(fmt::format("summary: {} does not exist", shown));
  const fs::path file = fs::is_directory(status) ? path / "meta.json" : path;
  if (fs::is_directory(status) && !fs::is_regular_file(file, ec))
    throw UsageError(fmt::format("summary: {} has no meta.json (is it the output directory of a cumap run?)", shown));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError(fmt::format("summary: {} cannot be read", printable_excerpt(file.string(), 160)));
  std::ostringstream content;
  content << in.rdbuf();
  try {
    return {file, nlohmann::json::parse(content.str())};
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("summary: {} is not JSON (is it the output directory of a cumap run?)",
                                 printable_excerpt(file.string(), 160)));
  }
}

}  // namespace cumap
