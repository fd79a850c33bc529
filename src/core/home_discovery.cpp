// Step one of every map: which home class each line of the flag arena has.
#include <algorithm>
#include <cmath>
#include <limits>

#include "cumap/map_run.hpp"
#include "cumap/protocol.hpp"
#include "cumap/stats.hpp"

namespace cumap {
namespace {

// Every kRecheckStride-th line is probed a second time to see that the
// classes reproduce (an eighth of the probe's cost).
constexpr std::size_t kRecheckStride = 8;
// Share of re-probed lines that must fall in their own class again.
constexpr double kRecheckAgreement = 0.9;

// The class whose per-unit latency profile is nearest to the line's, both
// centred on their own mean (a line's slice offset is not its class).
int nearest_class(const HomeClasses& classes, const LineLatencyTable& table, std::size_t line) {
  const std::size_t units = table.units.size();
  double line_mean = 0;
  for (std::size_t u = 0; u < units; ++u) line_mean += table.ns_at(u, line);
  line_mean /= static_cast<double>(units);
  int best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (int c = 0; c < classes.class_count; ++c) {
    const std::vector<double>& profile = classes.class_unit_ns[static_cast<std::size_t>(c)];
    double mean = 0;
    for (double v : profile) mean += v;
    mean /= static_cast<double>(units);
    double distance = 0;
    for (std::size_t u = 0; u < units; ++u) {
      const double d = (table.ns_at(u, line) - line_mean) - (profile[u] - mean);
      distance += std::isfinite(d) ? d * d : 0.0;
    }
    if (distance < best_distance) best_distance = distance, best = c;
  }
  return best;
}

// Classes that do not reproduce were noise (a busy CPU slows a stretch of
// lines for one unit): one class then, and the record says why.
void keep_only_reproducible_classes(Backend& backend, const LineProbePlan& plan, HomesResult& homes) {
  LineProbePlan again = plan;
  again.lines.clear();
  std::vector<int> expected;
  for (std::size_t l = 0; l < plan.lines.size(); l += kRecheckStride) {
    again.lines.push_back(plan.lines[l]);
    expected.push_back(homes.classes.line_class[l]);
  }
  const LineLatencyTable table = backend.probe_lines(again, {});
  std::size_t same = 0;
  for (std::size_t i = 0; i < again.lines.size(); ++i) same += nearest_class(homes.classes, table, i) == expected[i];
  homes.recheck_agreement = static_cast<double>(same) / static_cast<double>(again.lines.size());
  if (homes.recheck_agreement >= kRecheckAgreement) return;
  homes.unreproduced_class_count = homes.classes.class_count;
  HomeClasses one;
  one.line_class.assign(homes.table.lines.size(), 0);
  one.unit_side.assign(homes.table.units.size(), 0);
  one.class_unit_ns.assign(1, std::vector<double>(homes.table.units.size(), kNaN));
  for (std::size_t u = 0; u < homes.table.units.size(); ++u) {
    std::vector<double> row(homes.table.ns.begin() + static_cast<std::ptrdiff_t>(u * homes.table.lines.size()),
                            homes.table.ns.begin() + static_cast<std::ptrdiff_t>((u + 1) * homes.table.lines.size()));
    one.class_unit_ns[0][u] = summarize(row).median;
  }
  one.separation = std::numeric_limits<double>::infinity();
  homes.classes = one;
}

}  // namespace

HomesResult discover_homes(Backend& backend, const std::vector<int>& units, const Options& options,
                           const ProgressFn& progress) {
  HomesResult homes;
  const std::uint64_t line_count = static_cast<std::uint64_t>(std::max(options.home_lines, 1));
  const std::uint64_t stride = static_cast<std::uint64_t>(std::max<int>(options.home_stride, protocol::kLineBytes));
  // The arena spans exactly the probed lines (at least 64 KiB, so that even a
  // small probe spans several pages): every flag a map uses has a known home.
  homes.arena.bytes = std::max<std::uint64_t>(line_count * stride, 64 * 1024);
  homes.arena.offset_bytes = options.flag_offset;
  homes.arena.device = options.device;

  LineProbePlan plan;
  plan.arena = homes.arena;
  plan.chain = options.home_chain;
  for (int u : units) plan.units.push_back(unit_ref(u, options.device));
  for (std::uint64_t l = 0; l < line_count; ++l) plan.lines.push_back(l * stride);
  homes.table = backend.probe_lines(plan, progress);
  homes.classes = classify_lines(homes.table);
  if (homes.classes.class_count > 1) keep_only_reproducible_classes(backend, plan, homes);
  return homes;
}

}  // namespace cumap
