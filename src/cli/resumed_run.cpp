#include "cli/resumed_run.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "core/printable.hpp"
#include "cli/resume_check.hpp"

namespace cumap::cli {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw UsageError(fmt::format("--resume: {} cannot be read (is it the output directory of a cumap map run?)",
                                 printable_excerpt(path.string(), 120)));
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

nlohmann::json read_json(const std::filesystem::path& path) {
  try {
    return nlohmann::json::parse(read_text(path));
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("--resume: {} is not valid JSON", printable_excerpt(path.string(), 120)));
  }
}

}  // namespace

std::vector<PairStats> ResumedRun::completed(Placement placement) const {
  std::vector<PairStats> out;
  for (const PlacedPairStats& p : pairs)
    if (p.placement == placement && !p.stats.timed_out) out.push_back(p.stats);
  return out;
}

ResumedRun load_resumed_run(const Options& options) {
  const std::filesystem::path& dir = options.resume_dir;
  ResumedRun run;
  run.meta = read_json(dir / "meta.json");
  if (const auto difference = first_option_difference(run.meta, options))
    throw UsageError("--resume: " + *difference);
  run.homes = read_json(dir / "homes.json");
  run.pairs = parse_pairs_csv(read_text(dir / "pairs.csv"));
  return run;
}

void check_same_homes(const ResumedRun& run, const RunHomes& homes) {
  // homes.json holds one device's homes, or {"devices": [...]} (outputs.hpp).
  const nlohmann::json none = nlohmann::json::object();
  for (const HomesResult& h : homes) {
    const nlohmann::json* device = &run.homes;
    if (run.homes.contains("devices")) {
      device = &none;
      for (const nlohmann::json& d : run.homes["devices"])
        if (d.value("device", -1) == h.device) device = &d;
    }
    const nlohmann::json& recorded = device->value("line_class", none);
    for (std::size_t l = 0; l < h.table.lines.size(); ++l) {
      const std::string key = std::to_string(h.table.lines[l]);
      if (!recorded.contains(key) || recorded[key] != h.classes.line_class[l])
        throw UsageError(fmt::format(
            "--resume: the flag lines' home classes differ from the earlier run's (GPU {} line {} was class {}, is "
            "{}): its pairs cannot be combined with new ones; start a new run",
            h.device, key, recorded.contains(key) ? recorded[key].dump() : "missing", h.classes.line_class[l]));
    }
  }
}

}  // namespace cumap::cli
