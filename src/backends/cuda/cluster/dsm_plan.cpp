// Host arithmetic of the dsm path; see dsm_plan.hpp.
#include "backends/cuda/cluster/dsm_plan.hpp"
#include "plan/plan_checks.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "backends/cuda/cluster/dsm_params.hpp"
#include "cumap/error.hpp"
#include "core/stats.hpp"

namespace cumap::cuda {

void require_dsm_capability(int cc_major, int cc_minor) {
  if (cc_major < 9)
    throw UsageError(
        fmt::format("--via dsm needs compute capability 9.0 or newer (this GPU: {}.{})", cc_major, cc_minor));
}

void check_dsm_plan(const MeasurementPlan& plan, int device, const std::vector<int>& sm_ids) {
  if (plan.path != Path::Dsm) throw UsageError("the dsm path runs only plans with --via dsm");
  if (plan.flush_cache)
    throw UsageError("--flush-cache has no effect with --via dsm: the flags are in shared memory, not in L2");
  if (plan.l2_persist)
    throw UsageError("--l2-persist has no effect with --via dsm: the flags are in shared memory, not in L2");
  check_plan_units(plan, {{device, sm_ids}}, "SM");
  for (const Round& r : plan.rounds)
    for (const PlannedPair& p : r.pairs)
      if (p.a.unit == p.b.unit) throw UsageError(fmt::format("the plan pairs SM {} with itself", p.a.unit));
}

PlanEntries plan_entries(const MeasurementPlan& plan) {
  PlanEntries e;
  for (std::size_t r = 0; r < plan.rounds.size(); ++r) {
    for (const PlannedPair& p : plan.rounds[r].pairs) {
      e.wanted.push_back({p.a.unit, p.b.unit});
      e.planned.push_back(&p);
      e.round.push_back(static_cast<int>(r));
    }
  }
  return e;
}

DsmPairTable build_pair_table(const std::vector<WantedPair>& wanted, const std::vector<std::size_t>& pending,
                              int sm_id_limit) {
  if (sm_id_limit < 1) throw std::invalid_argument("build_pair_table: sm_id_limit must be positive");
  const auto limit = static_cast<std::size_t>(sm_id_limit);
  DsmPairTable t;
  t.sm_id_limit = sm_id_limit;
  t.key_offsets.assign(limit * limit + 1, 0);
  auto key_of = [&](const WantedPair& w) -> std::size_t {
    const int lo = std::min(w.a, w.b), hi = std::max(w.a, w.b);
    if (lo < 0 || hi >= sm_id_limit || lo == hi) return limit * limit;  // no key: never findable
    return static_cast<std::size_t>(lo) * limit + static_cast<std::size_t>(hi);
  };
  // Counting sort by key keeps each key's entries in plan order.
  for (std::size_t e : pending)
    if (const std::size_t k = key_of(wanted.at(e)); k < limit * limit) ++t.key_offsets[k + 1];
  for (std::size_t k = 0; k < limit * limit; ++k) t.key_offsets[k + 1] += t.key_offsets[k];
  t.key_entries.resize(static_cast<std::size_t>(t.key_offsets.back()));
  std::vector<int> fill(t.key_offsets.begin(), t.key_offsets.end() - 1);
  for (std::size_t e : pending)
    if (const std::size_t k = key_of(wanted[e]); k < limit * limit)
      t.key_entries[static_cast<std::size_t>(fill[k]++)] = static_cast<int>(e);
  return t;
}

std::vector<int> dsm_cluster_sizes(int max_cluster_size) {
  const int top = std::min(max_cluster_size, kDsmMaxClusterSize);
  std::vector<int> sizes;
  if (top < 2) return sizes;
  sizes.push_back(top);
  for (int s = static_cast<int>(std::bit_floor(static_cast<unsigned>(top))); s >= 2; s /= 2)
    if (s != top) sizes.push_back(s);
  return sizes;
}

int clusters_for_launch(int fit, int rotation, int cap) {
  if (fit < 1) return 0;
  const int n = rotation % 2 == 1 ? 2 * fit : fit;
  return cap > 0 ? std::min(n, cap) : n;
}

DsmStop dsm_next_step(const ClusterCoverage& coverage, int launches, int stale_launches, double seconds,
                      const DsmBudget& budget) {
  if (coverage.all_measured()) return DsmStop::AllMeasured;
  if (launches >= budget.max_launches) return DsmStop::LaunchBudget;
  if (seconds >= budget.max_seconds) return DsmStop::TimeBudget;
  if (stale_launches >= budget.stale_launches && coverage.coverable_unmeasured().empty()) return DsmStop::Settled;
  return DsmStop::Continue;
}

std::string to_string(DsmStop s) {
  switch (s) {
    case DsmStop::Continue: return "continue";
    case DsmStop::AllMeasured: return "every wanted pair measured";
    case DsmStop::Settled: return "no new pair shared a cluster in the last launches";
    case DsmStop::LaunchBudget: return "launch budget spent";
    case DsmStop::TimeBudget: return "time budget spent";
  }
  return "?";
}

PairMeasurement decode_dsm_entry(const PlannedPair& planned, int round, const std::uint64_t* sample_cycles,
                                 std::uint64_t cold_cycles, int status, const protocol::Counts& counts,
                                 double cycles_per_ns) {
  PairMeasurement m = measurement_for(planned, round);
  m.timed_out = status != kDsmPairOk;
  if (m.timed_out) return m;
  for (int s = 0; s < counts.samples; ++s) {
    const double cycles = static_cast<double>(sample_cycles[s]) / counts.iters;
    m.rtt_cycles.push_back(cycles);
    m.rtt_ns.push_back(cycles / cycles_per_ns);
  }
  m.cold_rtt_ns = static_cast<double>(cold_cycles) / cycles_per_ns;
  return m;
}

std::vector<ClusterBarrierRow> cluster_barrier_table(const std::map<int, std::vector<double>>& cycles_by_size,
                                                     double cycles_per_ns) {
  std::vector<ClusterBarrierRow> table;
  for (const auto& [size, cycles] : cycles_by_size) {
    if (cycles.empty()) continue;
    const double median = summarize(cycles).median;
    table.push_back({size, static_cast<int>(cycles.size()), median, median / cycles_per_ns});
  }
  return table;
}

}  // namespace cumap::cuda
