// Step one of every map: which home class each line of the flag arena has.
#include <algorithm>
#include <map>
#include <vector>

#include "run/home_discovery.hpp"
#include "cumap/protocol.hpp"
#include "core/homes.hpp"

namespace cumap {
namespace {

// Every kRecheckStride-th line is probed a second time to see that the
// classes reproduce (an eighth of the probe's cost), and at least
// kMinRecheckLines lines (every line of a smaller probe): two re-probed
// lines of a 16-line probe both fell in their noise class again on CI's
// busy 2-core machine (MapRun.ASmallProbeIsReprobedWhole).
constexpr std::size_t kRecheckStride = 8;
constexpr std::size_t kMinRecheckLines = 16;
// Share of re-probed lines that must fall in their own class again.
constexpr double kRecheckAgreement = 0.9;

// Classes that do not reproduce were noise (a busy CPU slows a stretch of
// lines for one unit): one class then, and the record says why.
void keep_only_reproducible_classes(Backend& backend, const LineProbePlan& plan, HomesResult& homes) {
  LineProbePlan again = plan;
  again.lines.clear();
  std::vector<int> expected;
  const std::size_t stride = std::clamp<std::size_t>(plan.lines.size() / kMinRecheckLines, 1, kRecheckStride);
  for (std::size_t l = 0; l < plan.lines.size(); l += stride) {
    again.lines.push_back(plan.lines[l]);
    expected.push_back(homes.classes.line_class[l]);
  }
  const std::vector<int> found = nearest_classes(homes.classes, backend.probe_lines(again, {}));
  std::size_t same = 0;
  for (std::size_t i = 0; i < found.size(); ++i) same += found[i] == expected[i];
  homes.recheck_agreement = static_cast<double>(same) / static_cast<double>(found.size());
  if (homes.recheck_agreement >= kRecheckAgreement) return;
  homes.unreproduced_class_count = homes.classes.class_count;
  // One class: the same clustering, allowed no split.
  ClassifyOptions one_class;
  one_class.max_classes = 1;
  homes.classes = classify_lines(homes.table, one_class);
}

}  // namespace

RunHomes discover_homes(Backend& backend, const std::vector<int>& units, const Options& options,
                        const ProgressFn& progress) {
  const std::uint64_t line_count = static_cast<std::uint64_t>(std::max(options.home_lines, 1));
  const std::uint64_t stride = static_cast<std::uint64_t>(std::max<int>(options.home_stride, protocol::kLineBytes));
  std::map<int, std::vector<int>> ids_by_device;
  for (int u : units) ids_by_device[unit_ref(u, options.device).device].push_back(u);
  RunHomes run;
  std::size_t probed = 0;  // units of the devices before: progress counts every unit once
  for (const auto& [device, ids] : ids_by_device) {
    HomesResult homes;
    homes.device = device;
    homes.unit_ids = ids;
    // The arena spans exactly the probed lines (at least 64 KiB, so that even a
    // small probe spans several pages): every flag a map uses has a known home.
    homes.arena.bytes = std::max<std::uint64_t>(line_count * stride, 64 * 1024);
    homes.arena.offset_bytes = options.flag_offset;

    LineProbePlan plan;
    plan.device = device;
    plan.arena = homes.arena;
    plan.chain = options.home_chain;
    plan.together = !options.home_serial;
    for (int u : ids) plan.units.push_back(unit_ref(u, options.device));
    for (std::uint64_t l = 0; l < line_count; ++l) plan.lines.push_back(l * stride);
    homes.table = backend.probe_lines(plan, [&](std::size_t done, std::size_t) {
      if (progress) progress(probed + done, units.size());
    });
    homes.classes = classify_lines(homes.table);
    if (homes.classes.class_count > 1) keep_only_reproducible_classes(backend, plan, homes);
    probed += ids.size();
    run.push_back(std::move(homes));
  }
  // Across devices: every other device's units to each device's lines, over
  // the link (what the far side of a pair across devices pays per line).
  if (ids_by_device.size() > 1)
    for (HomesResult& homes : run) {
      LineProbePlan remote;
      remote.device = homes.device;
      remote.arena = homes.arena;
      remote.chain = options.home_chain;
      remote.together = !options.home_serial;
      remote.lines = homes.table.lines;
      for (int u : units)
        if (unit_ref(u, options.device).device != homes.device) remote.units.push_back(unit_ref(u, options.device));
      homes.remote = backend.probe_lines(remote, {});
    }
  return run;
}

}  // namespace cumap
