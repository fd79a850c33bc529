#include "report/read/meta_json.hpp"

#include <string>
#include <system_error>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "report/read/checked_file.hpp"
#include "report/read/json_fields.hpp"

namespace cumap {

OutputMeta read_output_meta(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const std::string shown = printable_excerpt(path.string(), 160);
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) throw UsageError(fmt::format("summary: {} does not exist", shown));
  const fs::path file = fs::is_directory(status) ? path / "meta.json" : path;
  if (fs::is_directory(status) && !fs::exists(fs::symlink_status(file, ec)))
    throw UsageError(fmt::format("summary: {} has no meta.json (is it the output directory of a cumap run?)", shown));
  try {
    return {file, read_checked_json(file, kMetaJsonRead)};
  } catch (const FileReadError& e) {
    throw UsageError(fmt::format("summary: {}", e.what()));
  }
}

bool is_cumap_meta(const nlohmann::json& meta) { return json_fields::text(meta, "tool") == "cumap"; }

std::optional<OutputKind> output_kind_of(const nlohmann::json& meta) {
  if (!is_cumap_meta(meta)) return std::nullopt;
  if (const auto* row = names_of<OutputKind>().find(json_fields::text(meta, "kind"))) return row->value;
  // Inferring an earlier cumap's kind, rather than refusing to replace its
  // sets without --replace: these keys are what each command of every
  // earlier cumap wrote, and what `cumap summary` reads to tell them apart.
  const std::string command = json_fields::text(meta, "command");
  if (command == "barrier") return OutputKind::Barrier;
  if (command == "contention") return OutputKind::Contention;
  if (command.empty() && json_fields::member(meta, "maps").is_array()) return OutputKind::Map;
  if (command.empty() && json_fields::member(meta, "homes").is_object()) return OutputKind::Homes;
  return std::nullopt;
}

}  // namespace cumap
