#include "core/sync_cases.hpp"
#include "core/stats.hpp"

namespace cumap {

SyncCaseResult summarize_sync_case(const SyncCaseLabel& label, std::span<const SyncLaunchOutcome> launches,
                                   int default_device) {
  SyncCaseResult r;
  r.label = label;
  if (launches.empty()) return r;
  const SyncCase& first = *launches.front().planned;
  r.what = std::string(first.contention ? to_string(first.op) : to_string(first.impl));
  for (const UnitRef& u : first.participants) r.participants.push_back(unit_id(u, default_device));
  std::vector<double> ns, cycles, per_barrier_ns, per_barrier_cycles, ops_per_us;
  for (const SyncLaunchOutcome& launch : launches) {
    const SyncMeasurement& m = *launch.measured;
    r.counter_offsets.push_back(launch.planned->counter);
    r.timed_out |= m.timed_out;
    if (m.unsupported && !r.unsupported) {
      r.unsupported = true;
      r.why = m.why;
    }
    ns.insert(ns.end(), m.ns.begin(), m.ns.end());
    cycles.insert(cycles.end(), m.cycles.begin(), m.cycles.end());
    if (!first.contention && !m.ns.empty()) {
      per_barrier_ns.push_back(mean(m.ns));
      if (!m.cycles.empty()) per_barrier_cycles.push_back(mean(m.cycles));
    }
    if (m.ops_per_us > 0) ops_per_us.push_back(m.ops_per_us);
  }
  r.launches = static_cast<int>(launches.size());
  r.ns = r.cycles = summarize(std::span<const double>());  // no values: NaN, not 0
  if (r.timed_out || r.unsupported) return r;
  r.ns = summarize(ns);
  r.cycles = summarize(cycles);
  if (!per_barrier_ns.empty()) r.per_barrier_ns = mean(per_barrier_ns);
  if (!per_barrier_cycles.empty()) r.per_barrier_cycles = mean(per_barrier_cycles);
  const std::size_t per_value = first.contention ? first.participants.size() : 1;
  r.values = static_cast<int>(ns.size() / std::max<std::size_t>(per_value, 1));
  if (first.contention && !ops_per_us.empty()) r.ops_per_us = summarize(ops_per_us).median;
  return r;
}

}  // namespace cumap
