// What a reader needs to trust a map, in words (run_summary.hpp): each
// placement's serial self-checks, and the run's warnings.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/run_summary.hpp"
#include "core/stats.hpp"
#include "core/units.hpp"

namespace cumap {
namespace {

// "66 pairs per round", "one pair at a time".
std::string rounds_words(int pairs_per_round) {
  return pairs_per_round <= 1 ? "one pair at a time" : fmt::format("{} pairs per round", pairs_per_round);
}

// A cell whose samples' p05-p95 spread is this many times the run's typical
// spread, and at least kUnsteadyShare of its value, is beyond the run's own
// noise: the samples of one pair disagree, which a busy machine or a
// preempted thread does, and its median is not to be read as the chip's.
constexpr double kUnsteadyTimesTypical = 5.0;
constexpr double kUnsteadyShare = 0.5;

// The placement's unsteady cells over its class maps, in words; empty if none.
std::string unsteady_cells(const MapResult& r, const PlacementResult& p) {
  struct Cell {
    double spread;
    std::size_t map, index;
  };
  std::vector<Cell> cells;
  for (std::size_t m = 0; m < p.per_class_ns.size() && m < p.per_class_p05_ns.size() && m < p.per_class_p95_ns.size();
       ++m) {
    const ValueMatrix& v = p.per_class_ns[m];
    for (std::size_t i = 0; i < v.values.size(); ++i) {
      const double value = v.values[i], lo = p.per_class_p05_ns[m].values[i], hi = p.per_class_p95_ns[m].values[i];
      if (std::isfinite(value) && std::isfinite(lo) && std::isfinite(hi) && value > 0)
        cells.push_back({(hi - lo) / value, m, i});
    }
  }
  if (cells.empty()) return {};
  std::vector<double> spreads;
  for (const Cell& c : cells) spreads.push_back(c.spread);
  std::sort(spreads.begin(), spreads.end());
  const double typical = percentile(spreads, 0.5);
  const double limit = std::max(kUnsteadyTimesTypical * typical, kUnsteadyShare);
  std::size_t over = 0;
  const Cell* worst = nullptr;
  for (const Cell& c : cells)
    if (c.spread > limit) {
      ++over;
      if (!worst || c.spread > worst->spread) worst = &c;
    }
  if (!worst) return {};
  const ValueMatrix& v = p.per_class_ns[worst->map];
  const std::size_t n = v.size();
  const bool across = ids_span_devices(v.units);
  return fmt::format(
      "{}: {} of {} cells have samples that disagree by more than {:.0f} % of their value ({:g}x the run's typical "
      "p05-p95 spread of {:.1f} %); the worst, {} {} and {}, reads {:.1f} ns with p05 {:.1f} and p95 {:.1f} ns. "
      "Re-run before reading these cells{}",
      to_string(p.placement), over, cells.size(), 100 * limit, kUnsteadyTimesTypical, 100 * typical,
      r.device.unit_name, format_unit_id(v.units[worst->index / n], across),
      format_unit_id(v.units[worst->index % n], across), v.values[worst->index],
      p.per_class_p05_ns[worst->map].values[worst->index], p.per_class_p95_ns[worst->map].values[worst->index],
      r.settings.pairs_csv ? " (pairs.csv has every line's p05_ns and p95_ns)" : "");
}

}  // namespace

std::string check_words(const RunSummary::Map& m) {
  std::vector<std::string> failed;
  const SelfCheck* kept = nullptr;
  for (const SelfCheck& c : m.checks) {
    if (c.pairs_per_round == m.pairs_per_round) kept = &c;
    else if (!c.passed)
      failed.push_back(std::isfinite(c.agreement.median_rel_diff)
                           ? fmt::format("failed at {} ({:.1f} % from the serial measurement)",
                                         rounds_words(c.pairs_per_round), 100 * c.agreement.median_rel_diff)
                           : fmt::format("failed at {}", rounds_words(c.pairs_per_round)));
  }
  std::string words;
  for (const std::string& f : failed) words += f + "; ";
  if (!failed.empty()) words += fmt::format("re-measured at {}", rounds_words(m.pairs_per_round));
  if (kept && !std::isfinite(kept->agreement.median_rel_diff)) {
    if (!words.empty()) words += "; ";
    words += fmt::format("the serial check at {} had no pair to compare (none of its sample completed)",
                         rounds_words(kept->pairs_per_round));
  } else if (kept) {
    if (!words.empty()) words += ", where it ";
    words += kept->passed
                 ? fmt::format("agreed within {:.1f} % of a serial measurement (median over {} pairs)",
                               100 * kept->agreement.median_rel_diff, kept->agreement.n)
                 : fmt::format("differed from a serial measurement by {:.1f} % (median over {} pairs), more than the "
                               "run's own noise allows",
                               100 * kept->agreement.median_rel_diff, kept->agreement.n);
    if (failed.empty()) words += fmt::format("; {} kept", rounds_words(m.pairs_per_round));
  } else if (failed.empty()) {
    words = m.pairs_per_round <= 1
                ? "measured one pair at a time: no concurrent measurement to check, and no second measurement of "
                  "any pair"
                : fmt::format("{}, not checked against a serial measurement", rounds_words(m.pairs_per_round));
  }
  return words;
}

std::vector<std::string> run_warnings(const MapResult& r, const RunSummary& s) {
  std::vector<std::string> warnings;
  if (!r.run.backend_choice.empty()) warnings.push_back(r.run.backend_choice);
  for (const DeviceInfo::Neighbours& n : r.device.neighbours)
    if (n.known && !n.processes.empty())
      warnings.push_back(fmt::format("{} other compute process(es) on GPU {} during the run: they share its caches and "
                                     "interconnect and can change the map",
                                     n.processes.size(), n.pci_bus_id));
  for (const RunSummary::Map& m : s.maps) {
    if (m.completed_pairs == 0) continue;
    const std::string name = s.map_name(m);
    // A map of one pair has nothing to run beside it; more pairs one at a time
    // are measured once each, with nothing to compare them against.
    if (m.checks.empty() && m.pairs_per_round <= 1 && m.pairs > 1)
      warnings.push_back(fmt::format("{}: one pair per round, so no self-check could run: nothing compared these "
                                     "values with a second measurement (run it again to see whether they hold)",
                                     name));
    for (const SelfCheck& c : m.checks)
      if (c.pairs_per_round == m.pairs_per_round && !c.passed)
        warnings.push_back(fmt::format("{}: the map {}", name, check_words(m)));
  }
  for (const PlacementResult& p : r.placements)
    if (std::string words = unsteady_cells(r, p); !words.empty()) warnings.push_back(std::move(words));
  return warnings;
}

}  // namespace cumap
