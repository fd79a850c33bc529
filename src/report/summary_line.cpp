#include "report/summary_line.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

namespace cumap {
namespace {

// Across GPUs: the lead placement's median between each two GPUs (flags on
// either) with their link, and inside one GPU for comparison.
std::string across_gpus_words(const RunSummary& s) {
  const RunSummary::Map* lead = nullptr;
  for (const RunSummary::Map& m : s.maps)
    if (!m.gpu_pairs.empty() && (!lead || m.placement == "same-line")) lead = &m;
  if (!lead) return {};
  std::string between;
  std::vector<double> inside;
  for (const RunSummary::GpuPair& p : lead->gpu_pairs) {
    const GpuPairRow& row = p.row;
    if (row.cells == 0 || !std::isfinite(row.oneway_ns.median)) continue;
    if (row.gpu_a == row.gpu_b) inside.push_back(row.oneway_ns.median);
    else if (row.flags_on == "both")
      between += fmt::format("{}g{}-g{} {:.1f} ns over {}", between.empty() ? "" : ", ", row.gpu_a, row.gpu_b,
                             row.oneway_ns.median, p.link);
  }
  if (between.empty()) return {};
  std::string words = fmt::format("; {} across GPUs one-way median {}", lead->placement, between);
  if (!inside.empty()) {
    const auto [lo, hi] = std::minmax_element(inside.begin(), inside.end());
    words += *lo == *hi ? fmt::format(" (inside one GPU {:.1f} ns)", *lo)
                        : fmt::format(" (inside one GPU {:.1f}-{:.1f} ns)", *lo, *hi);
  }
  return words;
}

}  // namespace

std::string map_summary_line(const RunSummary& s, const std::filesystem::path& out_dir) {
  const RunHeader& run = s.run;
  std::string line =
      fmt::format("{} ({}), {} {}s", run.device_name, run.backend, run.units.size(), run.unit_name);
  if (s.has_homes()) line += fmt::format(", {} home class(es)", run.class_count);
  else line += ", flags in shared memory (dsm)";
  bool any_value = false;
  for (const RunSummary::Map& m : s.maps) {
    if (!m.median_ns) {
      line += fmt::format("; {}: no pair completed (every pair timed out)", s.map_name(m));
      continue;
    }
    any_value = true;
    line += fmt::format("; {} one-way median {:.1f} ns (min {:.1f}, max {:.1f}, {} pair(s) per round)",
                        s.map_name(m), *m.median_ns, m.min_ns.value_or(kNaN), m.max_ns.value_or(kNaN),
                        m.pairs_per_round);
  }
  // With one class every pair is "near": the words would only repeat the median.
  if (s.has_homes() && run.class_count > 1 && !s.same_line_pooled.empty() && any_value) {
    std::string levels;
    for (const StructureRow& row : s.same_line_pooled)
      levels += fmt::format("{}{} {:.1f} ns", levels.empty() ? "" : ", ", structure_words(row), row.median_ns);
    line += "; same-line, every class pooled: " + levels;
  }
  line += across_gpus_words(s);
  line += fmt::format("; written to {}", out_dir.string());
  return line;
}

}  // namespace cumap
