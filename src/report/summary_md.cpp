// summary.md: a map run in a page (summary_md.hpp), written from its
// summary, whether the run made it or `cumap summary DIR` read it back.
#include "report/summary_md.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/units.hpp"
#include "report/summary_text.hpp"
#include "report/summary_views.hpp"

namespace cumap {
namespace {

using summary_text::cell;
using summary_text::code_cell;
using summary_text::range;
using summary_text::value;

std::string gpus_words(int a, int b) { return a == b ? fmt::format("g{}", a) : fmt::format("g{} – g{}", a, b); }

// "a-b", ids as pairs.csv names them.
std::string pair_name(const std::pair<int, int>& pair, bool across) {
  return format_unit_id(pair.first, across) + "-" + format_unit_id(pair.second, across);
}

// Complete as the page says it: every planned pair measured, none timed
// out, and at least one with a value.
bool complete(const RunSummary::Map& m) { return m.complete && m.timed_out_pairs.empty() && m.completed_pairs > 0; }

// A table under the sentences that say what it holds, and a blank line;
// nothing where it has no rows.
std::string table_markdown(const std::string& about, const std::string& head, const std::vector<std::string>& rows) {
  if (rows.empty()) return {};
  std::string md = about + head;
  for (const std::string& row : rows) md += row;
  return md + "\n";
}

// "## Across GPUs": the sentences, the GPU x GPU table and the pairs between
// GPUs by flag GPU, class and sides; nothing on one GPU.
std::string across_gpus_markdown(const RunSummary& s) {
  if (!s.across_gpus()) return {};
  const std::string unit = s.run.unit_word();
  std::vector<std::string> gpu_pairs, structure;
  for (const RunSummary::Map& m : s.maps) {
    for (const RunSummary::GpuPair& p : m.gpu_pairs)
      gpu_pairs.push_back(fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", cell(m.placement),
                                      gpus_words(p.row.gpu_a, p.row.gpu_b), cell(p.row.flags_on), cell(p.link),
                                      value(p.row.oneway_ns.median), range(p.row.oneway_ns.p05, p.row.oneway_ns.p95),
                                      p.row.cells));
    for (const CrossGpuStructureRow& r : m.cross_gpu_structure)
      structure.push_back(fmt::format("| {} | {} | g{} | {} | {} | {} | {} | {} | {} |\n", cell(m.placement),
                                      gpus_words(r.gpu_a, r.gpu_b), r.flags_on, r.home_class, r.side_a, r.side_b,
                                      value(r.median_ns), range(r.p05_ns, r.p95_ns), r.cells));
  }
  std::string md = "## Across GPUs\n\n";
  for (const std::string& f : s.across_gpu_findings) md += "- " + f + "\n";
  if (!s.across_gpu_findings.empty()) md += "\n";
  md += table_markdown(
      fmt::format(
          "One-way latency in ns between the {0}s of two GPUs, and inside each GPU for comparison (`gpus.csv`). "
          "Cells: {0} pairs (each direction once with --ordered). Flags on *both*: every pair between GPUs "
          "measured with its flags on each GPU, each GPU's lines weighing the same; *g0*: the lines in GPU 0's "
          "memory only.\n\n",
          unit),
      "| placement | GPUs | flags on | link | median | p05–p95 | cells |\n"
      "| --- | --- | --- | --- | ---: | ---: | ---: |\n",
      gpu_pairs);
  md += table_markdown(
      fmt::format(
          "### By home class and side\n\n"
          "One-way latency in ns of the pairs between two GPUs *a* – *b* by the GPU holding the flags, the home "
          "class of the flag's line (a class of that GPU) and the side of each {0} on its own GPU (`meta.json`, "
          "`cross_gpu_structure`). Cells: {0} pairs.\n\n",
          unit),
      "| placement | GPUs | flags on | home class | side on a | side on b | median | p05–p95 | cells |\n"
      "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
      structure);
  return md;
}

}  // namespace

std::string summary_markdown(const RunSummary& s) {
  const RunHeader& run = s.run;
  const std::string unit = run.unit_word();
  std::string md = fmt::format("# cumap: {}\n\n", cell(run.device_name.empty() ? "unknown device" : run.device_name));
  md += "| run | |\n| --- | --- |\n";
  md += fmt::format("| device | {} ({}), {} {}s mapped |\n", cell(run.device_name), cell(run.backend),
                    run.units.size(), cell(unit));
  std::string serial;
  for (const std::string& one : run.serials) serial += (serial.empty() ? "" : ", ") + (one.empty() ? "unknown" : one);
  md += fmt::format("| serial | {} |\n", cell(serial.empty() ? "not reported" : serial));
  std::string driver = run.driver_version;
  if (!run.runtime_version.empty()) driver += (driver.empty() ? "runtime " : ", runtime ") + run.runtime_version;
  if (driver.empty()) driver = "not reported";
  md += fmt::format("| driver | {} |\n", cell(driver));
  md += fmt::format("| date | {} |\n", cell(run.timestamp_utc));
  md += fmt::format("| command | {} |\n", code_cell(run.command_line));
  std::string how = fmt::format("{} probe, {}, {} round trips × {} samples per pair", s.probe,
                                s.has_homes() ? "global memory" : "distributed shared memory (--via dsm)", s.iters,
                                s.samples);
  if (s.has_homes()) {
    how += fmt::format(", {} flag line(s) per home class, {} home class(es)", s.lines_per_class, run.class_count);
    if (run.sides.size() > 1) {
      std::vector<std::string> sizes;
      for (const UnitGroup& side : run.sides) sizes.push_back(std::to_string(side.units.size()));
      how += fmt::format(" ({} {}s per side)", fmt::format("{}", fmt::join(sizes, " / ")), unit);
    }
    if (s.cross_lines > 0)
      how += fmt::format("; a pair across GPUs on {} line(s) per class on each GPU, {} samples after {} untimed "
                         "round trips on each", s.cross_lines, s.cross_samples, s.cross_warmup);
  }
  md += fmt::format("| measured | {} |\n", cell(how));
  md += fmt::format("| cumap | {} on {}, {:.1f} s |\n\n", cell(run.tool_version), cell(run.host), run.wall_seconds);
  if (!run.caveat.empty()) md += "**" + run.caveat + "**\n\n";
  for (const std::string& w : s.warnings) md += "**Warning: " + w + ".**\n\n";

  for (const std::string& f : s.findings) md += "- " + f + "\n";
  if (!s.findings.empty()) md += "\n";

  md += !s.has_homes() ? "## Maps\n\nOne-way latency in ns (`matrix-dsm.csv`).\n\n"
                       : "## Maps\n\nOne-way latency in ns, every home class weighing the same "
                         "(`matrix-<map>.csv`).\n\n";
  md += "| map | pairs with a value | median | p05–p95 | min–max | pairs per round | complete |\n";
  md += "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n";
  for (const RunSummary::Map& m : s.maps)
    md += fmt::format("| {} | {} of {} | {} | {} | {} | {} | {} |\n", cell(s.map_name(m)), m.completed_pairs, m.pairs,
                      value(m.median_ns), range(m.p05_ns, m.p95_ns), range(m.min_ns, m.max_ns), m.pairs_per_round,
                      complete(m) ? "yes" : "no");
  md += "\n";

  md += "## Checks\n\nEach map is measured many pairs at a time; a sample of its pairs is measured again one "
        "pair at a time (`meta.json`, `serial_checks`).\n\n";
  for (const RunSummary::Map& m : s.maps) md += fmt::format("- {}: {}.\n", cell(s.map_name(m)), check_words(m));
  md += "\n";

  if (!s.structure.empty()) {
    md += fmt::format("## Structure\n\nOne-way latency in ns by where a pair's two {0}s sit relative to the home "
                      "class of its flag line: the near side (both on the side near that class; side *s* is the "
                      "{0}s nearest to home class *s*), the far side (both on the other side), across sides (one on "
                      "each). Pairs: how many pairs each row holds; a pooled row counts a pair once per class.\n\n",
                      unit);
    md += "| placement | flags in | where the pair sits | median | p05–p95 | pairs |\n";
    md += "| --- | --- | --- | ---: | ---: | ---: |\n";
    for (const RunSummary::Structure& row : s.structure)
      md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", cell(row.placement),
                        row.home_class ? fmt::format("class {}", *row.home_class) : "every class (pooled)",
                        cell(where_words(row, run.class_count)), value(row.row.median_ns),
                        range(row.row.p05_ns, row.row.p95_ns), row.row.cells);
    md += "\n";
  }

  md += across_gpus_markdown(s);
  md += views_markdown(s);

  if (const std::vector<RunSummary::ClusterBarrier> barrier = s.cluster_barrier(); !barrier.empty()) {
    md += "## Cluster barrier\n\nOne `barrier.cluster` (`cluster.sync()`) by cluster size (`cluster-barrier.csv`).\n\n";
    md += "| cluster size | clusters | median (ns) | median (cycles) |\n| ---: | ---: | ---: | ---: |\n";
    for (const RunSummary::ClusterBarrier& b : barrier)
      md += fmt::format("| {} | {} | {:.1f} | {:.1f} |\n", b.cluster_size, b.clusters, b.median_ns, b.median_cycles);
    md += "\n";
  }

  md += "## Timed-out pairs\n\n";
  std::size_t late = 0;
  for (const RunSummary::Map& m : s.maps) {
    if (m.timed_out_pairs.empty()) continue;
    late += m.timed_out_pairs.size();
    std::vector<std::string> shown;
    for (std::size_t i = 0; i < m.timed_out_pairs.size() && i < 40; ++i)
      shown.push_back(pair_name(m.timed_out_pairs[i], run.across_devices()));
    md += fmt::format("- {}: {} of {} pair(s): {}{}\n", cell(s.map_name(m)), m.timed_out_pairs.size(), m.pairs,
                      fmt::format("{}", fmt::join(shown, ", ")),
                      m.timed_out_pairs.size() > shown.size()
                          ? fmt::format(" and {} more (meta.json)", m.timed_out_pairs.size() - shown.size())
                          : "");
  }
  md += late == 0 ? "None.\n\n" : "\n";

  const std::string example = s.maps.empty() ? "same-line" : s.map_name(s.maps.front());
  md += "## Loading the files\n\n";
  md += "Matrix headers are text to pandas and R; make the column labels numbers to index by unit id both ways. "
        "`units.csv` has one row per unit (device, side, topology group, matrix row)";
  md += s.pairs_csv ? ": `pairs.csv` joins it by unit.\n\n"
                    : ". `pairs.csv` (every pair on every line) was left out (--no-pairs-csv).\n\n";
  md += "```python\nimport pandas as pd\n";
  md += fmt::format("m = pd.read_csv(\"matrix-{}.csv\", index_col=0)\n", example);
  md += run.across_devices() ? "m.loc[\"g0.0\", \"g1.0\"]   # ids across GPUs are text both ways\n"
                         : "m.columns = m.columns.astype(int)   # then m.loc[0, 1] works\n";
  md += "units = pd.read_csv(\"units.csv\")\n";
  if (s.pairs_csv)
    md += "pairs = pd.read_csv(\"pairs.csv\").merge(units.add_suffix(\"_a\"), left_on=\"a\", right_on=\"unit_a\")\n";
  md += "```\n\n";
  md += "```r\n";
  md += fmt::format("m <- as.matrix(read.csv(\"matrix-{}.csv\", row.names = 1, check.names = FALSE))\n", example);
  md += run.across_devices() ? "m[\"g0.0\", \"g1.0\"]\n" : "m[\"0\", \"1\"]   # row and column names are the ids as text\n";
  if (s.pairs_csv)
    md += "pairs <- merge(read.csv(\"pairs.csv\"), read.csv(\"units.csv\"), by.x = \"a\", by.y = \"unit\")\n";
  md += "```\n";
  return md;
}

}  // namespace cumap
