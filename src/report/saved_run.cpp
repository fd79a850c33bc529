// A finished run's directory read back (saved_run.hpp), through the readers
// of each of its files.
#include "report/saved_run.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>

#include <fmt/format.h>

#include "core/homes.hpp"
#include "core/map_views.hpp"
#include "core/printable.hpp"
#include "core/topology.hpp"
#include "core/units.hpp"
#include "cumap/error.hpp"
#include "cumap/options.hpp"
#include "report/read/checked_file.hpp"
#include "report/read/json_fields.hpp"
#include "report/read/matrix_csv.hpp"
#include "report/read/meta_json.hpp"
#include "report/read/pairs_csv.hpp"
#include "report/read/sync_csv.hpp"
#include "report/summary_json.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

// read_output_meta speaks for `cumap summary`; here the command is another.
UsageError in_words_of(std::string_view command, const UsageError& e) {
  std::string message = e.what();
  constexpr std::string_view kSummary = "summary: ";
  if (message.starts_with(kSummary)) message.erase(0, kSummary.size());
  return UsageError(fmt::format("{}: {}", command, message));
}

Topology topology_or_none(const nlohmann::json& j) {
  try {
    return j.is_object() ? topology_from_json(j) : Topology{};
  } catch (const UsageError&) {
    return {};  // a layout the run did not record well is drawn as none
  }
}

}  // namespace

bool SavedRun::host_cores() const {
  try {
    return backend_facts(backend_kind_from_string(header().backend)).host_cores;
  } catch (const UsageError&) {
    return false;
  }
}

SavedRun read_saved_run(const fs::path& path, std::string_view command) {
  SavedRun run;
  run.shown = printable_excerpt(path.string(), 160);
  OutputMeta read;
  try {
    read = read_output_meta(path);
  } catch (const UsageError& e) {
    throw in_words_of(command, e);
  }
  run.dir = read.file.parent_path();
  if (run.dir.empty()) run.dir = ".";
  run.meta = read.meta;
  try {
    if (is_sync_meta(run.meta)) {
      run.sync = read_sync_summary(read);
    } else {
      run.map = run_summary_from_json(run.meta, run.shown);
    }
  } catch (const UsageError& e) {
    throw in_words_of(command, e);
  }
  using json_fields::member;
  run.topology = topology_or_none(member(run.meta, "topology"));
  run.display_groups = topology_or_none(member(run.meta, "display_groups"));
  const nlohmann::json& order = member(run.meta, "display_order");
  if (order.is_array())
    for (const nlohmann::json& u : order)
      if (u.is_number_integer()) run.display_order.push_back(u.get<int>());
  return run;
}

std::map<int, int> unit_side_numbers(const RunHeader& h) {
  std::map<int, int> side;
  for (std::size_t s = 0; s < h.sides.size(); ++s) {
    const std::string& name = h.sides[s].name;
    int number = static_cast<int>(s);
    if (const std::size_t at = name.rfind("side"); at != std::string::npos) {
      int parsed = 0;
      const char* end = name.data() + name.size();
      if (const auto [ptr, ec] = std::from_chars(name.data() + at + 4, end, parsed); ec == std::errc() && ptr == end)
        number = parsed;
    }
    for (int u : h.sides[s].units) side[u] = number;
  }
  return side;
}

void add_views_from_files(RunSummary& summary, const SavedRun& run) {
  std::vector<PlacementMatrices> maps;
  for (const RunSummary::Map& m : summary.maps) {
    const std::string name = summary.map_name(m);
    const std::string headline = fmt::format("matrix-{}.csv", name);
    if (!run_has_file(run, headline)) return;
    PlacementMatrices p{name, read_run_matrix(run, headline), {}, {}};
    for (int c = 0; summary.run.class_count > 1 && c < summary.run.class_count; ++c)
      if (const std::string file = fmt::format("matrix-{}-home{}.csv", name, c); run_has_file(run, file))
        p.per_class_ns.emplace_back(c, read_run_matrix(run, file));
    // As the run fits them: each class's map, or with one class the map itself.
    if (p.per_class_ns.empty()) p.fits.push_back(fit_additive(p.headline_ns));
    for (const auto& [home_class, matrix] : p.per_class_ns) p.fits.push_back(fit_additive(matrix));
    maps.push_back(std::move(p));
  }
  add_map_views(summary, maps, run.display_groups);
}

std::vector<std::string> matrix_files(const SavedRun& run) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(run.dir, ec)) {
    const std::string name = e.path().filename().string();
    if ((name.starts_with("matrix-") || name.starts_with("line-spread-")) && name.ends_with(".csv") &&
        e.is_regular_file(ec))
      names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool run_has_file(const SavedRun& run, const std::string& name) {
  std::error_code ec;
  return fs::is_regular_file(run.dir / name, ec);
}

ValueMatrix read_run_matrix(const SavedRun& run, const std::string& name) { return read_matrix_csv(run.dir / name); }

std::vector<SyncCaseResult> read_run_cases(const SavedRun& run) {
  if (!run.sync) return {};
  return read_sync_csv(run.dir / run.sync->csv_name(), run.sync->command).cases;
}

std::vector<PairRow> read_pair_rows(const SavedRun& run, int a, int b) {
  const fs::path file = run.dir / "pairs.csv";
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  // A GPU run's pairs.csv has millions of rows; the pair's are the few whose
  // first two cells are its ids, kept with the header for the one reader of
  // the file (parse_pairs_csv), which checks them. Read through the checked
  // reader in chunks: never held whole.
  const bool across = ids_span_devices(run.header().units);
  const std::string ab = format_unit_id(a, across) + "," + format_unit_id(b, across) + ",";
  const std::string ba = format_unit_id(b, across) + "," + format_unit_id(a, across) + ",";
  std::string kept, partial;
  bool header = true;
  const auto keep = [&](std::string_view line) {
    if (header || line.starts_with(ab) || line.starts_with(ba)) kept.append(line).push_back('\n');
    header = false;
  };
  read_checked_file_in_chunks(file, kPairsCsvRead, [&](std::string_view chunk) {
    for (std::size_t end; (end = chunk.find('\n')) != std::string_view::npos; chunk.remove_prefix(end + 1)) {
      if (partial.empty()) keep(chunk.substr(0, end));
      else keep(partial.append(chunk.substr(0, end))), partial.clear();
    }
    partial.append(chunk);
  });
  if (!partial.empty()) keep(partial);
  std::vector<PairRow> rows;
  try {
    for (const PlacedPairStats& p : parse_pairs_csv(kept)) rows.push_back({p.placement, p.stats});
  } catch (const UsageError& e) {
    // Its line numbers count the pair's rows only.
    throw UsageError(fmt::format("{}, the rows of pair {}-{}: {}", printable_excerpt(file.string(), 160),
                                 format_unit_id(a, across), format_unit_id(b, across), e.what()));
  }
  return rows;
}

}  // namespace cumap
