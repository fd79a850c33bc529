#include "core/sync_cases.hpp"

namespace cumap {

SyncCaseResult summarize_sync_case(const SyncCase& planned, const SyncCaseLabel& label, const SyncMeasurement& m) {
  SyncCaseResult r;
  r.label = label;
  r.what = std::string(planned.contention ? to_string(planned.op) : to_string(planned.impl));
  for (const UnitRef& u : planned.participants) r.participants.push_back(u.unit);
  r.counter_offset = planned.counter;
  r.timed_out = m.timed_out;
  r.unsupported = m.unsupported;
  r.why = m.why;
  // A case that timed out or could not run has no values worth keeping:
  // the ones before the stall would describe a barrier that then hung.
  const bool usable = !m.timed_out && !m.unsupported;
  r.ns = summarize(usable ? std::span<const double>(m.ns) : std::span<const double>());
  r.cycles = summarize(usable ? std::span<const double>(m.cycles) : std::span<const double>());
  if (!planned.contention && usable) {
    r.per_barrier_ns = median_of_block_means(m.ns, kPerBarrierBlocks);
    if (!m.cycles.empty()) r.per_barrier_cycles = median_of_block_means(m.cycles, kPerBarrierBlocks);
  }
  const std::size_t per_value = planned.contention ? planned.participants.size() : 1;
  r.values = usable ? static_cast<int>(m.ns.size() / std::max<std::size_t>(per_value, 1)) : 0;
  if (planned.contention && usable && m.ops_per_us > 0) r.ops_per_us = m.ops_per_us;
  return r;
}

}  // namespace cumap
