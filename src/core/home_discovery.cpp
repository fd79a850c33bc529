// Step one of every map: which home class each line of the flag arena has.
#include <algorithm>

#include "cumap/map_run.hpp"
#include "cumap/protocol.hpp"

namespace cumap {

HomesResult discover_homes(Backend& backend, const std::vector<int>& units, const Options& options,
                           const ProgressFn& progress) {
  HomesResult homes;
  const std::uint64_t line_count = static_cast<std::uint64_t>(std::max(options.home_lines, 1));
  // The arena is exactly the probed lines (at least 64 KiB, so that even a
  // small probe spans several pages): every flag a map uses has a known home.
  homes.arena.bytes = std::max<std::uint64_t>(line_count * protocol::kLineBytes, 64 * 1024);
  homes.arena.offset_bytes = options.flag_offset;
  homes.arena.device = options.device;

  LineProbePlan plan;
  plan.arena = homes.arena;
  for (int u : units) plan.units.push_back(unit_ref(u, options.device));
  for (std::uint64_t l = 0; l < line_count; ++l) plan.lines.push_back(l * protocol::kLineBytes);
  homes.table = backend.probe_lines(plan, progress);
  homes.classes = classify_lines(homes.table);
  return homes;
}

}  // namespace cumap
