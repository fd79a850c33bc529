// --resume: does the earlier run's meta.json describe the same measurement?
// The option table says which recorded options do not count (where and how
// loudly, not what is measured): resume_ignores.
#include <string>

#include <fmt/format.h>

#include "core/option_table.hpp"
#include "core/printable.hpp"
#include "cli/resume_check.hpp"

namespace cumap {
namespace {

// A recorded value for a message: compact JSON, one line, not too long;
// null is an option left to the backend (--iters, --lines-per-class).
std::string shown(const nlohmann::json& value) {
  return value.is_null() ? "the backend's default" : printable_excerpt(value.dump(), 60);
}

}  // namespace

std::optional<std::string> first_option_difference(const nlohmann::json& previous_meta, const Options& current) {
  if (!previous_meta.is_object() || !previous_meta.contains("options") || !previous_meta["options"].is_object())
    return "the earlier run's meta.json records no options";
  const nlohmann::json& before = previous_meta["options"];
  // to_json(Options) is what meta.json records: one place knows the names.
  const nlohmann::json now = to_json(current);
  // Every option of this version, in meta.json's order, then any the earlier
  // run recorded that this version does not know.
  for (const auto& [key, value] : now.items()) {
    if (resume_ignores(key)) continue;
    if (!before.contains(key))
      return fmt::format("{}: the earlier run did not record it (this run uses {})", key, shown(value));
    if (before[key] != value)
      return fmt::format("{}: the earlier run used {}, this one {}", key, shown(before[key]), shown(value));
  }
  for (const auto& [key, value] : before.items())
    if (!resume_ignores(key) && !now.contains(key))
      return fmt::format("{}: the earlier run used {}, which this version does not know",
                         printable_excerpt(key), shown(value));
  return std::nullopt;
}

std::optional<std::string> first_typed_difference(const nlohmann::json& previous_meta, const Options& current,
                                                  const std::map<std::string, std::string>& typed) {
  if (!previous_meta.is_object() || !previous_meta.contains("options") || !previous_meta["options"].is_object())
    return "the earlier run's meta.json records no options";
  const nlohmann::json& before = previous_meta["options"];
  const nlohmann::json now = to_json(current);
  for (const auto& [flag, key] : typed) {
    if (!now.contains(key) || resume_ignores(key)) continue;
    if (!before.contains(key))
      return fmt::format("{}: the earlier run did not record it (this run uses {})", flag, shown(now[key]));
    if (before[key] != now[key])
      return fmt::format("{}: the earlier run used {}, this one {}", flag, shown(before[key]), shown(now[key]));
  }
  return std::nullopt;
}

}  // namespace cumap
