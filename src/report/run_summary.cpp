// summary.md and `cumap summary`: a map's meta.json in a page (run_summary.hpp).
#include "report/run_summary.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "core/homes.hpp"
#include "core/printable.hpp"
#include "core/units.hpp"
#include "cumap/error.hpp"
#include "report/map_summary.hpp"
#include "report/json_number.hpp"
#include "report/meta_fields.hpp"
#include "report/summary_text.hpp"

namespace cumap {
namespace {

using Json = nlohmann::json;
using meta_fields::boolean;
using meta_fields::member;
using meta_fields::text;
using meta_fields::whole;
using summary_text::cell;
using summary_text::csv_field;
using summary_text::csv_number;
using summary_text::range;
using summary_text::value;

std::optional<double> number(const Json& j, const char* key) {
  const Json& v = member(j, key);
  if (!v.is_number()) return std::nullopt;
  const double x = v.get<double>();
  return std::isfinite(x) ? std::optional<double>(x) : std::nullopt;
}

// Where a pair sits relative to the flag's home, in words, with the side
// where one side is meant: near the home of class c is side c (the class a
// side is near has the side's number); with two classes "far" is the other side.
std::string where_words(const std::string& relation, int near_units, std::optional<int> home_class, int classes) {
  std::string words = structure_words(StructureRow{relation, near_units, 0, 0, 0, 0});
  if (!home_class || relation != "same-side") return words;
  if (near_units == 2) return fmt::format("{} (side {})", words, *home_class);
  if (near_units == 0 && classes == 2) return fmt::format("{} (side {})", words, 1 - *home_class);
  return words;
}

std::vector<std::string> timed_out_pairs(const Json& map, bool across) {
  std::vector<std::string> out;
  const Json& list = member(map, "timed_out_pairs");
  if (!list.is_array()) return out;
  for (const Json& pair : list)
    if (pair.is_array() && pair.size() == 2 && pair[0].is_number_integer() && pair[1].is_number_integer())
      out.push_back(format_unit_id(pair[0].get<int>(), across) + "-" + format_unit_id(pair[1].get<int>(), across));
  return out;
}

RunSummary::Map map_of(const Json& m, bool dsm, bool across) {
  RunSummary::Map map;
  map.placement = dsm ? "dsm" : text(m, "placement");
  map.pairs = whole<std::size_t>(m, "pair_count", 0);
  map.pairs_per_round = whole<int>(m, "pairs_per_round", 1);
  map.timed_out_pairs = timed_out_pairs(m, across);
  const Json& ns = member(m, "oneway_ns");
  map.median_ns = number(ns, "median");
  map.p05_ns = number(ns, "p05");
  map.p95_ns = number(ns, "p95");
  map.min_ns = number(ns, "min");
  map.max_ns = number(ns, "max");
  // meta.json of cumap 0.1.0 and before has no completed_pairs: a map
  // without a median had none, else every pair but the timed-out ones.
  const std::size_t late = map.timed_out_pairs.size();
  map.completed_pairs = member(m, "completed_pairs").is_number()
                            ? whole<std::size_t>(m, "completed_pairs", 0)
                            : (map.median_ns ? map.pairs - std::min(late, map.pairs) : 0);
  map.complete = boolean(m, "complete", true) && late == 0 && map.completed_pairs > 0;
  return map;
}

RunSummary::Structure structure_of(const Json& row, std::string placement, std::optional<int> home_class,
                                   int classes) {
  RunSummary::Structure s;
  s.placement = std::move(placement);
  s.home_class = home_class;
  s.relation = text(row, "relation");
  s.near_units = whole<int>(row, "near_units", 0);
  s.where = where_words(s.relation, s.near_units, home_class, classes);
  s.median_ns = number(row, "median_ns");
  s.p05_ns = number(row, "p05_ns");
  s.p95_ns = number(row, "p95_ns");
  s.cells = whole<std::size_t>(row, "cells", 0);
  return s;
}

const RunSummary::Structure* find_row(const RunSummary& s, const std::string& placement,
                                      std::optional<int> home_class, const std::string& relation, int near) {
  for (const RunSummary::Structure& row : s.structure)
    if (row.placement == placement && row.home_class == home_class && row.relation == relation &&
        row.near_units == near && row.median_ns)
      return &row;
  return nullptr;
}

std::string ns(double v) { return fmt::format("{:.0f} ns", v); }

std::string join(const std::vector<std::string>& parts, const std::string& last = " and ") {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i == 0 ? "" : i + 1 == parts.size() ? last : ", ") + parts[i];
  return out;
}

// The placement the sentences speak of: same-line (one flag line shared by
// both units, the common case) where it has values, else the first that has.
const RunSummary::Map* lead_map(const RunSummary& s) {
  for (const RunSummary::Map& m : s.maps)
    if (m.placement == "same-line" && m.median_ns) return &m;
  for (const RunSummary::Map& m : s.maps)
    if (m.median_ns) return &m;
  return nullptr;
}

// Where a flag should live, from the per-class rows of `placement`.
void home_findings(RunSummary& s, const std::string& placement) {
  const std::string& unit = s.unit_name;
  if (s.class_count == 2) {
    // Side s is near class s: its pairs' near row is class s's, its far row
    // (same side, neither unit near) the other class's.
    std::optional<double> near[2], far[2];
    for (int side = 0; side < 2; ++side) {
      const auto* n = find_row(s, placement, side, "same-side", 2);
      const auto* f = find_row(s, placement, 1 - side, "same-side", 0);
      if (n && f) {
        near[side] = n->median_ns;
        far[side] = f->median_ns;
      }
    }
    const int first = near[0] ? 0 : 1;
    if (near[first]) {
      const int other = 1 - first;
      s.findings.push_back(fmt::format(
          "A flag shared by {}s of side {} costs {} one-way in a class-{} line and {} in a class-{} line{} ({} map): "
          "put a flag that one side's {}s share in a line of the class that side is near (homes.json lists every "
          "line's class, units.csv every {}'s side).",
          unit, first, ns(*near[first]), first, ns(*far[first]), other,
          near[other] ? fmt::format("; of side {}, {} in a class-{} line and {} in a class-{} line", other,
                                    ns(*near[other]), other, ns(*far[other]), first)
                      : std::string(),
          placement, unit, unit));
      std::vector<std::string> across;
      for (int c = 0; c < 2; ++c)
        if (const auto* row = find_row(s, placement, c, "other-side", 1)) across.push_back(ns(*row->median_ns));
      if (!across.empty()) {
        const bool alike = across.size() == 1 || across[0] == across[1];
        s.findings.push_back(fmt::format("Pairs across sides cost {} one-way {}.",
                                         alike ? across[0] : across[0] + " and " + across[1],
                                         alike ? "whichever class the line is in"
                                             : "(class-0 and class-1 lines)"));
      }
      return;
    }
  }
  // Three or more classes, or a meta.json with the classes pooled: the
  // range of the per-class medians, or the pooled medians.
  std::vector<double> near, far, across;
  for (const RunSummary::Structure& row : s.structure) {
    if (row.placement != placement || !row.median_ns) continue;
    if (row.relation == "same-side") (row.near_units == 2 ? near : far).push_back(*row.median_ns);
    else if (row.near_units == 1) across.push_back(*row.median_ns);
  }
  const auto span = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return ns(v.front()) == ns(v.back()) ? ns(v.front()) : fmt::format("{:.0f}-{}", v.front(), ns(v.back()));
  };
  if (near.empty() || far.empty()) return;
  s.findings.push_back(fmt::format(
      "A {} flag shared by {}s of one side costs {} one-way in a line of the class that side is near and {} in a "
      "line of another class{}: put such a flag in a line of its side's class (homes.json lists every line's class).",
      placement, s.unit_name, span(near), span(far), across.empty() ? "" : "; pairs across sides cost " + span(across)));
}

void make_findings(RunSummary& s) {
  const std::string& unit = s.unit_name;
  if (s.no_pair_completed()) {
    std::vector<std::string> names;
    for (const RunSummary::Map& m : s.maps) names.push_back(m.placement);
    s.findings.push_back(fmt::format(
        "No pair completed: every pair of the {} map{} timed out (--timeout-ms {:g}), so the maps hold no latency. "
        "Check that no other work holds the {}s, or raise --timeout-ms.",
        join(names), names.size() == 1 ? "" : "s", s.timeout_ms, unit));
    return;
  }
  if (s.interrupted)
    s.findings.push_back("The run was interrupted: the maps are partial (`cumap --resume DIR` with the same options "
                         "measures only what is missing).");
  for (const RunSummary::Map& m : s.maps)
    if (m.completed_pairs == 0)
      s.findings.push_back(fmt::format("No pair of the {} map completed: every one timed out.", m.placement));

  const RunSummary::Map* lead = lead_map(s);
  if (s.via == "dsm") {
    if (lead)
      s.findings.push_back(fmt::format(
          "Two {}s of one thread-block cluster signal each other in {} one-way through distributed shared memory "
          "(p05-p95 {:.0f}-{}, {} pairs).",
          unit, ns(*lead->median_ns), lead->p05_ns.value_or(0), ns(lead->p95_ns.value_or(0)), lead->completed_pairs));
    if (!s.cluster_barrier.empty()) {
      const auto& a = s.cluster_barrier.front();
      const auto& b = s.cluster_barrier.back();
      s.findings.push_back(
          s.cluster_barrier.size() == 1
              ? fmt::format("A cluster barrier (barrier.cluster) costs {} at {} {}s per cluster.", ns(a.median_ns),
                            a.cluster_size, unit)
              : fmt::format("A cluster barrier (barrier.cluster) costs {} at {} {}s per cluster and {} at {}.",
                            ns(a.median_ns), a.cluster_size, unit, ns(b.median_ns), b.cluster_size));
    }
  } else if (lead && s.class_count >= 2) {
    home_findings(s, lead->placement);
  } else if (lead && s.class_count == 1 && lead->p05_ns && lead->p95_ns) {
    const double spread = 100.0 * (*lead->p95_ns - *lead->p05_ns) / *lead->median_ns;
    s.findings.push_back(fmt::format(
        "One home class: no flag line is nearer to some {}s than to others, so where a flag lives does not matter "
        "here; the {} map is flat within {:.0f} % (p05-p95 {:.1f}-{:.1f} ns around its median {:.1f} ns).",
        unit, lead->placement, spread, *lead->p05_ns, *lead->p95_ns, *lead->median_ns));
  }
  // Padding two flags apart is a choice a reader makes: worth a sentence
  // where it changes the cost by more than the map's own noise.
  const RunSummary::Map *same = nullptr, *split = nullptr;
  for (const RunSummary::Map& m : s.maps) {
    if (m.placement == "same-line" && m.median_ns) same = &m;
    if (m.placement == "split-line" && m.median_ns) split = &m;
  }
  if (same && split) {
    const double change = 100.0 * (*split->median_ns / *same->median_ns - 1.0);
    if (std::abs(change) >= 3.0)
      s.findings.push_back(fmt::format("Two flags in separate lines (split-line) cost {} one-way, {:.0f} % {} than "
                                       "in one line (same-line, {}).",
                                       ns(*split->median_ns), std::abs(change), change > 0 ? "more" : "less",
                                       ns(*same->median_ns)));
  }
  std::size_t late = 0;
  for (const RunSummary::Map& m : s.maps) late += m.timed_out_pairs.size();
  if (late > 0)
    s.findings.push_back(fmt::format("{} pair(s) timed out (listed below; their cells are empty): `cumap --resume "
                                     "DIR` with the same options measures them again.",
                                     late));
}


}  // namespace

bool RunSummary::no_pair_completed() const {
  return std::none_of(maps.begin(), maps.end(), [](const Map& m) { return m.completed_pairs > 0; });
}

RunSummary run_summary(const Json& meta, const std::string& source) {
  const auto not_a_map = [&](const std::string& why) {
    return UsageError(fmt::format("{} is not the meta.json of a cumap map: {}", printable_excerpt(source, 160), why));
  };
  if (!meta.is_object() || text(meta, "tool") != "cumap") throw not_a_map("it does not say \"tool\": \"cumap\"");
  if (!member(meta, "maps").is_array())
    throw not_a_map(meta.contains("homes") ? "it holds no maps (cumap homes wrote it)" : "it holds no maps");
  RunSummary s;
  try {
    const Json& options = member(meta, "options");
    const Json& device = member(meta, "device");
    s.tool_version = text(meta, "tool_version");
    s.timestamp_utc = text(meta, "timestamp_utc");
    s.host = text(meta, "host");
    s.command_line = text(meta, "command_line");
    s.wall_seconds = number(meta, "wall_seconds").value_or(0.0);
    s.interrupted = boolean(meta, "interrupted", false);

    s.device_name = text(device, "name");
    s.backend = text(meta, "backend");
    s.unit_name = text(device, "unit_name");
    if (s.unit_name.empty()) s.unit_name = "unit";
    s.driver_version = text(device, "driver_version");
    s.runtime_version = text(device, "runtime_version");
    if (member(device, "serial").is_string()) s.serials.push_back(device["serial"].get<std::string>());
    else if (member(device, "gpus").is_array())
      for (const Json& gpu : device["gpus"]) s.serials.push_back(text(gpu, "serial"));
    std::vector<int> units;
    if (member(meta, "units").is_array())
      for (const Json& u : meta["units"])
        if (u.is_number_integer()) units.push_back(u.get<int>());
    s.units = units.size();
    s.across_devices = ids_span_devices(units);

    s.via = text(options, "via");
    if (s.via.empty()) s.via = meta.contains("homes") ? "global" : "dsm";
    s.probe = text(options, "probe");
    s.iters = whole<int>(meta, "iters", 0);
    s.samples = whole<int>(options, "samples", 0);
    s.lines_per_class = whole<int>(meta, "lines_per_class", 0);
    s.cross_lines = whole<int>(meta, "cross_lines", 0);
    s.timeout_ms = number(options, "timeout_ms").value_or(0.0);
    const Json& homes = member(meta, "homes");
    s.class_count = whole<int>(homes, "class_count", 0);
    if (member(homes, "sides").is_array())
      for (const Json& side : homes["sides"]) s.side_units.push_back(member(side, "units").size());

    const bool dsm = s.via == "dsm";
    for (const Json& m : meta["maps"]) {
      s.maps.push_back(map_of(m, dsm, s.across_devices));
      const Json& barrier = member(member(member(m, "stats"), "extra"), "cluster_barrier");
      if (barrier.is_array())
        for (const Json& row : barrier)
          s.cluster_barrier.push_back({whole<int>(row, "cluster_size", 0), whole<long long>(row, "clusters", 0),
                                       number(row, "median_ns").value_or(0.0),
                                       number(row, "median_cycles").value_or(0.0)});
    }
    std::sort(s.cluster_barrier.begin(), s.cluster_barrier.end(),
              [](const auto& a, const auto& b) { return a.cluster_size < b.cluster_size; });

    // Per placement and class where meta.json has them; else (cumap 0.1.0)
    // the same-line rows with the classes pooled.
    if (member(meta, "structure_by_class").is_array()) {
      for (const Json& row : meta["structure_by_class"])
        s.structure.push_back(structure_of(row, text(row, "placement"),
                                           member(row, "home_class").is_number_integer()
                                               ? std::optional<int>(row["home_class"].get<int>())
                                               : std::nullopt,
                                           s.class_count));
    } else if (member(meta, "structure").is_array()) {
      for (const Json& row : meta["structure"])
        s.structure.push_back(structure_of(row, "same-line", std::nullopt, s.class_count));
    }
    s.across_gpus = across_gpus_summary(member(meta, "gpus"), member(meta, "cross_gpu_structure"), s.unit_name);
  } catch (const nlohmann::json::exception& e) {
    throw not_a_map(printable_excerpt(e.what(), 120));
  }
  make_findings(s);
  return s;
}

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
    return {file, Json::parse(content.str())};
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("summary: {} is not JSON (is it the output directory of a cumap run?)",
                                 printable_excerpt(file.string(), 160)));
  }
}

RunSummary read_run_summary(const std::filesystem::path& path) {
  const OutputMeta read = read_output_meta(path);
  return run_summary(read.meta, read.file.string());
}

std::string summary_markdown(const RunSummary& s) {
  std::string md = fmt::format("# cumap: {}\n\n", cell(s.device_name.empty() ? "unknown device" : s.device_name));
  md += "| run | |\n| --- | --- |\n";
  md += fmt::format("| device | {} ({}), {} {}s mapped |\n", cell(s.device_name), cell(s.backend), s.units,
                    cell(s.unit_name));
  std::string serial;
  for (const std::string& one : s.serials) serial += (serial.empty() ? "" : ", ") + (one.empty() ? "unknown" : one);
  md += fmt::format("| serial | {} |\n", cell(serial.empty() ? "not reported" : serial));
  std::string driver = s.driver_version;
  if (!s.runtime_version.empty()) driver += (driver.empty() ? "runtime " : ", runtime ") + s.runtime_version;
  if (driver.empty()) driver = "not reported";
  md += fmt::format("| driver | {} |\n", cell(driver));
  md += fmt::format("| date | {} |\n", cell(s.timestamp_utc));
  md += fmt::format("| command | `{}` |\n", cell(s.command_line));
  std::string how = fmt::format("{} probe, {}, {} round trips × {} samples per pair", s.probe,
                                s.via == "dsm" ? "distributed shared memory (--via dsm)" : "global memory", s.iters,
                                s.samples);
  if (s.via != "dsm") {
    how += fmt::format(", {} flag line(s) per home class, {} home class(es)", s.lines_per_class, s.class_count);
    if (s.side_units.size() > 1) {
      std::vector<std::string> sizes;
      for (std::size_t n : s.side_units) sizes.push_back(std::to_string(n));
      how += fmt::format(" ({} {}s per side)", fmt::format("{}", fmt::join(sizes, " / ")), s.unit_name);
    }
    if (s.cross_lines > 0)
      how += fmt::format("; a pair across GPUs on {} line(s) per class on each GPU", s.cross_lines);
  }
  md += fmt::format("| measured | {} |\n", cell(how));
  md += fmt::format("| cumap | {} on {}, {:.1f} s |\n\n", cell(s.tool_version), cell(s.host), s.wall_seconds);

  for (const std::string& f : s.findings) md += "- " + f + "\n";
  if (!s.findings.empty()) md += "\n";

  md += s.via == "dsm" ? "## Maps\n\nOne-way latency in ns (`matrix-dsm.csv`).\n\n"
                       : "## Maps\n\nOne-way latency in ns, every home class weighing the same "
                         "(`matrix-<map>.csv`).\n\n";
  md += "| map | pairs with a value | median | p05–p95 | min–max | pairs per round | complete |\n";
  md += "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n";
  for (const RunSummary::Map& m : s.maps)
    md += fmt::format("| {} | {} of {} | {} | {} | {} | {} | {} |\n", cell(m.placement), m.completed_pairs, m.pairs,
                      value(m.median_ns), range(m.p05_ns, m.p95_ns), range(m.min_ns, m.max_ns), m.pairs_per_round,
                      m.complete ? "yes" : "no");
  md += "\n";

  if (!s.structure.empty()) {
    md += fmt::format("## Structure\n\nOne-way latency in ns by where a pair sits relative to the flag's home: "
                      "side *s* is the {}s nearest to home class *s*. Cells: pairs.\n\n",
                      s.unit_name);
    md += "| placement | home class | pairs | median | p05–p95 | cells |\n";
    md += "| --- | --- | --- | ---: | ---: | ---: |\n";
    for (const RunSummary::Structure& row : s.structure)
      md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", cell(row.placement),
                        row.home_class ? std::to_string(*row.home_class) : "all (pooled)", cell(row.where),
                        value(row.median_ns), range(row.p05_ns, row.p95_ns), row.cells);
    md += "\n";
  }

  md += across_gpus_markdown(s.across_gpus, s.unit_name);

  if (!s.cluster_barrier.empty()) {
    md += "## Cluster barrier\n\nOne `barrier.cluster` (`cluster.sync()`) by cluster size (`cluster-barrier.csv`).\n\n";
    md += "| cluster size | clusters | median (ns) | median (cycles) |\n| ---: | ---: | ---: | ---: |\n";
    for (const RunSummary::ClusterBarrier& b : s.cluster_barrier)
      md += fmt::format("| {} | {} | {:.1f} | {:.1f} |\n", b.cluster_size, b.clusters, b.median_ns, b.median_cycles);
    md += "\n";
  }

  md += "## Timed-out pairs\n\n";
  std::size_t late = 0;
  for (const RunSummary::Map& m : s.maps) {
    if (m.timed_out_pairs.empty()) continue;
    late += m.timed_out_pairs.size();
    std::vector<std::string> shown(m.timed_out_pairs.begin(),
                                   m.timed_out_pairs.begin() +
                                       static_cast<std::ptrdiff_t>(std::min<std::size_t>(m.timed_out_pairs.size(), 40)));
    md += fmt::format("- {}: {} of {} pair(s): {}{}\n", cell(m.placement), m.timed_out_pairs.size(), m.pairs,
                      fmt::format("{}", fmt::join(shown, ", ")),
                      m.timed_out_pairs.size() > shown.size()
                          ? fmt::format(" and {} more (meta.json)", m.timed_out_pairs.size() - shown.size())
                          : "");
  }
  md += late == 0 ? "None.\n\n" : "\n";

  const std::string example = s.maps.empty() ? "same-line" : s.maps.front().placement;
  md += "## Loading the files\n\n";
  md += "Matrix headers are text to pandas and R; make the column labels numbers to index by unit id both ways. "
        "`units.csv` has one row per unit (device, side, topology group, matrix row): `pairs.csv` joins it by unit.\n\n";
  md += "```python\nimport pandas as pd\n";
  md += fmt::format("m = pd.read_csv(\"matrix-{}.csv\", index_col=0)\n", example);
  md += s.across_devices ? "m.loc[\"g0.0\", \"g1.0\"]   # ids across GPUs are text both ways\n"
                         : "m.columns = m.columns.astype(int)   # then m.loc[0, 1] works\n";
  md += "units = pd.read_csv(\"units.csv\")\n";
  md += "pairs = pd.read_csv(\"pairs.csv\").merge(units.add_suffix(\"_a\"), left_on=\"a\", right_on=\"unit_a\")\n```\n\n";
  md += "```r\n";
  md += fmt::format("m <- as.matrix(read.csv(\"matrix-{}.csv\", row.names = 1, check.names = FALSE))\n", example);
  md += s.across_devices ? "m[\"g0.0\", \"g1.0\"]\n" : "m[\"0\", \"1\"]   # row and column names are the ids as text\n";
  md += "pairs <- merge(read.csv(\"pairs.csv\"), read.csv(\"units.csv\"), by.x = \"a\", by.y = \"unit\")\n```\n";
  return md;
}

std::string summary_csv(const RunSummary& s) {
  std::string out = "placement,home_class,relation,near_units,where,median_ns,p05_ns,p95_ns,cells\n";
  for (const RunSummary::Map& m : s.maps)
    out += fmt::format("{},all,all,,every pair,{},{},{},{}\n", csv_field(m.placement), csv_number(m.median_ns),
                       csv_number(m.p05_ns), csv_number(m.p95_ns), m.completed_pairs);
  for (const RunSummary::Structure& row : s.structure)
    out += fmt::format("{},{},{},{},{},{},{},{},{}\n", csv_field(row.placement),
                       row.home_class ? std::to_string(*row.home_class) : "all", csv_field(row.relation),
                       row.near_units, csv_field(row.where), csv_number(row.median_ns), csv_number(row.p05_ns),
                       csv_number(row.p95_ns), row.cells);
  return out + across_gpus_csv_rows(s.across_gpus);
}

Json to_json(const RunSummary& s) {
  Json maps = Json::array();
  for (const RunSummary::Map& m : s.maps)
    maps.push_back({{"placement", m.placement},
                    {"complete", m.complete},
                    {"pairs", m.pairs},
                    {"completed_pairs", m.completed_pairs},
                    {"median_ns", number_or_null(m.median_ns)},
                    {"p05_ns", number_or_null(m.p05_ns)},
                    {"p95_ns", number_or_null(m.p95_ns)},
                    {"min_ns", number_or_null(m.min_ns)},
                    {"max_ns", number_or_null(m.max_ns)},
                    {"pairs_per_round", m.pairs_per_round},
                    {"timed_out_pairs", m.timed_out_pairs}});
  Json structure = Json::array();
  for (const RunSummary::Structure& row : s.structure)
    structure.push_back({{"placement", row.placement},
                         {"home_class", row.home_class ? Json(*row.home_class) : Json("all")},
                         {"relation", row.relation},
                         {"near_units", row.near_units},
                         {"where", row.where},
                         {"median_ns", number_or_null(row.median_ns)},
                         {"p05_ns", number_or_null(row.p05_ns)},
                         {"p95_ns", number_or_null(row.p95_ns)},
                         {"cells", row.cells}});
  Json barrier = Json::array();
  for (const RunSummary::ClusterBarrier& b : s.cluster_barrier)
    barrier.push_back({{"cluster_size", b.cluster_size}, {"clusters", b.clusters}, {"median_ns", b.median_ns},
                       {"median_cycles", b.median_cycles}});
  return {{"tool_version", s.tool_version},
          {"timestamp_utc", s.timestamp_utc},
          {"host", s.host},
          {"command_line", s.command_line},
          {"wall_seconds", s.wall_seconds},
          {"interrupted", s.interrupted},
          {"device", {{"name", s.device_name},
                      {"backend", s.backend},
                      {"unit_name", s.unit_name},
                      {"driver_version", s.driver_version},
                      {"runtime_version", s.runtime_version},
                      {"serials", s.serials}}},
          {"units", s.units},
          {"across_devices", s.across_devices},
          {"via", s.via},
          {"probe", s.probe},
          {"iters", s.iters},
          {"samples", s.samples},
          {"lines_per_class", s.lines_per_class},
          {"cross_lines", s.cross_lines},
          {"timeout_ms", s.timeout_ms},
          {"class_count", s.class_count},
          {"side_units", s.side_units},
          {"no_pair_completed", s.no_pair_completed()},
          {"maps", maps},
          {"structure", structure},
          {"cluster_barrier", barrier},
          {"across_gpus", to_json(s.across_gpus)},
          {"findings", s.findings}};
}

}  // namespace cumap
