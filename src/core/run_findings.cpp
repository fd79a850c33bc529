// The sentences of a map's summary on the chip (run_summary.hpp,
// chip_findings): where a flag should live, what the placements cost, what
// did not complete. Those across GPUs are in across_gpu_findings.cpp.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/run_summary.hpp"

namespace cumap {
namespace {

std::string ns(double v) { return fmt::format("{:.0f} ns", v); }

std::string join(const std::vector<std::string>& parts, const std::string& last = " and ") {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i == 0 ? "" : i + 1 == parts.size() ? last : ", ") + parts[i];
  return out;
}

const StructureRow* find_row(const RunSummary& s, const std::string& placement, std::optional<int> home_class,
                             const std::string& relation, int near) {
  for (const RunSummary::Structure& row : s.structure)
    if (row.placement == placement && row.home_class == home_class && row.row.relation == relation &&
        row.row.near_units == near && std::isfinite(row.row.median_ns))
      return &row.row;
  return nullptr;
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
void home_findings(const RunSummary& s, const std::string& placement, std::vector<std::string>& out) {
  const std::string unit = s.run.unit_word();
  if (s.run.class_count == 2) {
    // Side s is near class s: its pairs' near row is class s's, its far row
    // (same side, neither unit near) the other class's.
    std::optional<double> near[2], far[2];
    for (int side = 0; side < 2; ++side) {
      const StructureRow* n = find_row(s, placement, side, "same-side", 2);
      const StructureRow* f = find_row(s, placement, 1 - side, "same-side", 0);
      if (n && f) {
        near[side] = n->median_ns;
        far[side] = f->median_ns;
      }
    }
    const int first = near[0] ? 0 : 1;
    if (near[first]) {
      const int other = 1 - first;
      out.push_back(fmt::format(
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
        if (const StructureRow* row = find_row(s, placement, c, "other-side", 1)) across.push_back(ns(row->median_ns));
      if (!across.empty()) {
        const bool alike = across.size() == 1 || across[0] == across[1];
        out.push_back(fmt::format("Pairs across sides cost {} one-way {}.",
                                         alike ? across[0] : across[0] + " and " + across[1],
                                         alike ? "whichever class the line is in" : "(class-0 and class-1 lines)"));
      }
      return;
    }
  }
  // Three or more classes, or a meta.json with the classes pooled: the
  // range of the per-class medians, or the pooled medians.
  std::vector<double> near, far, across;
  for (const RunSummary::Structure& row : s.structure) {
    if (row.placement != placement || !std::isfinite(row.row.median_ns)) continue;
    if (row.row.relation == "same-side") (row.row.near_units == 2 ? near : far).push_back(row.row.median_ns);
    else if (row.row.near_units == 1) across.push_back(row.row.median_ns);
  }
  const auto span = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return ns(v.front()) == ns(v.back()) ? ns(v.front()) : fmt::format("{:.0f}-{}", v.front(), ns(v.back()));
  };
  if (near.empty() || far.empty()) return;
  out.push_back(fmt::format(
      "A {} flag shared by {}s of one side costs {} one-way in a line of the class that side is near and {} in a "
      "line of another class{}: put such a flag in a line of its side's class (homes.json lists every line's class).",
      placement, unit, span(near), span(far), across.empty() ? "" : "; pairs across sides cost " + span(across)));
}

}  // namespace

std::vector<std::string> chip_findings(const RunSummary& s) {
  std::vector<std::string> out;
  const std::string unit = s.run.unit_word();
  if (s.no_pair_completed()) {
    std::vector<std::string> names;
    for (const RunSummary::Map& m : s.maps) names.push_back(s.map_name(m));
    out.push_back(fmt::format(
        "No pair completed: every pair of the {} map{} timed out (--timeout-ms {:g}), so the maps hold no latency. "
        "Check that no other work holds the {}s, or raise --timeout-ms.",
        join(names), names.size() == 1 ? "" : "s", s.timeout_ms, unit));
    return out;
  }
  if (s.interrupted)
    out.push_back(s.pairs_csv ? "The run was interrupted: the maps are partial (`cumap --resume DIR` with the same "
                                "options measures only what is missing)."
                              : "The run was interrupted: the maps are partial; made with --no-pairs-csv, it "
                                "cannot be continued: map it again.");
  for (const RunSummary::Map& m : s.maps)
    if (m.completed_pairs == 0)
      out.push_back(fmt::format("No pair of the {} map completed: every one timed out.", s.map_name(m)));

  const RunSummary::Map* lead = lead_map(s);
  if (!s.has_homes()) {
    if (lead)
      out.push_back(fmt::format(
          "Two {}s of one thread-block cluster signal each other in {} one-way through distributed shared memory "
          "(p05-p95 {:.0f}-{}, {} pairs).",
          unit, ns(*lead->median_ns), lead->p05_ns.value_or(0), ns(lead->p95_ns.value_or(0)), lead->completed_pairs));
    const std::vector<RunSummary::ClusterBarrier> barrier = s.cluster_barrier();
    if (!barrier.empty()) {
      const RunSummary::ClusterBarrier& a = barrier.front();
      const RunSummary::ClusterBarrier& b = barrier.back();
      out.push_back(
          barrier.size() == 1
              ? fmt::format("A cluster barrier (barrier.cluster) costs {} at {} {}s per cluster.", ns(a.median_ns),
                            a.cluster_size, unit)
              : fmt::format("A cluster barrier (barrier.cluster) costs {} at {} {}s per cluster and {} at {}.",
                            ns(a.median_ns), a.cluster_size, unit, ns(b.median_ns), b.cluster_size));
    }
  } else if (lead && s.run.class_count >= 2) {
    home_findings(s, lead->placement, out);
  } else if (lead && s.run.class_count == 1 && lead->p05_ns && lead->p95_ns && *lead->median_ns > 0) {
    const double spread = 100.0 * (*lead->p95_ns - *lead->p05_ns) / *lead->median_ns;
    out.push_back(fmt::format(
        "One home class: no flag line is nearer to some {}s than to others, so where a flag lives does not matter "
        "here; the {} map is flat within {:.0f} % (p05-p95 {:.1f}-{:.1f} ns around its median {:.1f} ns).",
        unit, lead->placement, spread, *lead->p05_ns, *lead->p95_ns, *lead->median_ns));
  }
  // Padding two flags apart is a choice a reader makes: worth a sentence
  // where it changes the cost by more than the map's own noise.
  const RunSummary::Map *same = nullptr, *split = nullptr;
  for (const RunSummary::Map& m : s.maps) {
    if (!s.has_homes() || !m.median_ns) continue;
    if (m.placement == "same-line") same = &m;
    if (m.placement == "split-line") split = &m;
  }
  if (same && split && *same->median_ns > 0) {  // a median read back from meta.json may be anything
    const double change = 100.0 * (*split->median_ns / *same->median_ns - 1.0);
    if (std::abs(change) >= 3.0)
      out.push_back(fmt::format("Two flags in separate lines (split-line) cost {} one-way, {:.0f} % {} than "
                                       "in one line (same-line, {}).",
                                       ns(*split->median_ns), std::abs(change), change > 0 ? "more" : "less",
                                       ns(*same->median_ns)));
  }
  std::size_t late = 0;
  for (const RunSummary::Map& m : s.maps) late += m.timed_out_pairs.size();
  if (late > 0)
    out.push_back(fmt::format("{} pair(s) timed out (listed below; their cells are empty): {}.", late,
                              s.pairs_csv ? "`cumap --resume DIR` with the same options measures them again"
                                          : "map again to measure them (without pairs.csv the run cannot be "
                                            "continued)"));
  return out;
}

}  // namespace cumap
