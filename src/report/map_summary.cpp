#include "report/map_summary.hpp"
#include "core/map_result.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "report/gpu_table.hpp"
#include "core/stats.hpp"

namespace cumap {

std::string structure_words(const StructureRow& row) {
  if (row.relation == "same-side") return row.near_units == 2 ? "near the flag's home" : "far";
  return row.near_units == 1 ? "across sides" : "across sides, both far";
}

bool no_pair_completed(const PlacementResult& p) {
  const auto any_value = [](const ValueMatrix& m) {
    return std::any_of(m.values.begin(), m.values.end(), [](double v) { return std::isfinite(v); });
  };
  return !any_value(p.headline_ns) && std::none_of(p.per_class_ns.begin(), p.per_class_ns.end(), any_value);
}

bool no_pair_completed(const MapResult& r) {
  return std::all_of(r.placements.begin(), r.placements.end(),
                     [](const PlacementResult& p) { return no_pair_completed(p); });
}

namespace {

// Across GPUs: the lead placement's median between each two GPUs (flags on
// either) with their link, and inside one GPU for comparison.
std::string across_gpus_words(const MapResult& r) {
  const PlacementResult* lead = nullptr;
  for (const PlacementResult& p : r.placements)
    if (!p.gpu_table.empty() && (!lead || p.placement == Placement::SameLine)) lead = &p;
  if (!lead) return {};
  std::string between;
  std::vector<double> inside;
  for (const GpuPairRow& row : lead->gpu_table) {
    if (row.cells == 0 || !std::isfinite(row.oneway_ns.median)) continue;
    if (row.gpu_a == row.gpu_b) inside.push_back(row.oneway_ns.median);
    else if (row.flags_on == "both")
      between += fmt::format("{}g{}-g{} {:.1f} ns over {}", between.empty() ? "" : ", ", row.gpu_a, row.gpu_b,
                             row.oneway_ns.median, gpu_link(r.device, row.gpu_a, row.gpu_b));
  }
  if (between.empty()) return {};
  std::string words = fmt::format("; {} across GPUs one-way median {}", to_string(lead->placement), between);
  if (!inside.empty()) {
    const auto [lo, hi] = std::minmax_element(inside.begin(), inside.end());
    words += *lo == *hi ? fmt::format(" (inside one GPU {:.1f} ns)", *lo)
                        : fmt::format(" (inside one GPU {:.1f}-{:.1f} ns)", *lo, *hi);
  }
  return words;
}

}  // namespace

std::string map_summary_line(const MapResult& r) {
  std::string line = fmt::format("{} ({}), {} {}s", r.device.name, r.device.backend, r.display_order.size(),
                                 r.device.unit_name);
  const bool homes = r.settings.has_homes();
  if (homes) line += fmt::format(", {} home class(es)", class_count(r.homes));
  else line += ", flags in shared memory (dsm)";
  for (const PlacementResult& p : r.placements) {
    const Summary s = summarize(p.headline_ns.values);
    if (no_pair_completed(p)) {
      line += fmt::format("; {}: no pair completed (every pair timed out)", homes ? to_string(p.placement) : "dsm");
      continue;
    }
    line += fmt::format("; {} one-way median {:.1f} ns (min {:.1f}, max {:.1f}, {} pair(s) per round)",
                        homes ? to_string(p.placement) : "dsm", s.median, s.min, s.max,
                        p.pairs_per_round);
  }
  // With one class every pair is "near": the words would only repeat the median.
  if (homes && class_count(r.homes) > 1 && !r.structure.empty() && !no_pair_completed(r)) {
    std::string levels;
    for (const StructureRow& row : r.structure)
      levels += fmt::format("{}{} {:.1f} ns", levels.empty() ? "" : ", ", structure_words(row), row.median_ns);
    line += "; same-line pairs " + levels;
  }
  line += across_gpus_words(r);
  line += fmt::format("; written to {}", r.settings.out_dir.string());
  return line;
}

}  // namespace cumap
