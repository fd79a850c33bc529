#include "report/map_summary.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

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
  line += fmt::format("; written to {}", r.settings.out_dir.string());
  return line;
}

}  // namespace cumap
