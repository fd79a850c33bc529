// Host orchestration of the dsm path: launch clusters until the wanted pairs
// that can share a cluster are measured, then turn the records into
// measurements. See dsm_map.hpp.
#include "backends/cuda/cluster/dsm_map.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/device_buffer.hpp"
#include "backends/cuda/cluster/cluster_launches.hpp"
#include "cumap/error.hpp"

namespace cumap::cuda {
namespace {

// A cluster size the device can run, and how many such clusters fit at once.
struct LaunchShape {
  int size;
  int fit;
};

std::vector<LaunchShape> launch_shapes(int probe, std::size_t smem_bytes) {
  std::vector<LaunchShape> shapes;
  for (int size : dsm_cluster_sizes(dsm_max_cluster_size(probe, smem_bytes)))
    if (const int fit = dsm_max_active_clusters(probe, size, smem_bytes); fit > 0) shapes.push_back({size, fit});
  if (shapes.empty())
    throw RuntimeFailure(fmt::format(
        "--via dsm: no cluster of two or more blocks with {} bytes of shared memory each fits on this GPU", smem_bytes));
  return shapes;
}

// Device memory of one map: per entry (kept across launches) and per cluster
// of the largest launch (rewritten by every launch).
struct DsmBuffers {
  DsmBuffers(std::size_t entries, int samples, std::size_t key_count, std::size_t max_clusters,
             std::size_t max_blocks)
      : entry_sms(2 * std::max<std::size_t>(entries, 1)),
        claimed(std::max<std::size_t>(entries, 1)),
        sample_cycles(std::max<std::size_t>(entries, 1) * static_cast<std::size_t>(samples)),
        cold_cycles(std::max<std::size_t>(entries, 1)),
        status(std::max<std::size_t>(entries, 1)),
        key_offsets(key_count + 1),
        key_entries(std::max<std::size_t>(entries, 1)),
        cluster_sms(max_blocks),
        barrier_cycles(max_clusters),
        cluster_tasks(max_clusters) {}

  DeviceBuffer<int> entry_sms;
  DeviceBuffer<unsigned> claimed;
  DeviceBuffer<std::uint64_t> sample_cycles;
  DeviceBuffer<std::uint64_t> cold_cycles;
  DeviceBuffer<int> status;
  DeviceBuffer<int> key_offsets;
  DeviceBuffer<int> key_entries;
  DeviceBuffer<int> cluster_sms;
  DeviceBuffer<std::uint64_t> barrier_cycles;
  DeviceBuffer<int> cluster_tasks;
};

void check_context(const DsmContext& ctx) {
  if (ctx.sm_ids.empty() || !(ctx.cycles_per_ns > 0) || !(ctx.max_sm_clock_hz > 0) || ctx.smem_bytes == 0)
    throw std::invalid_argument("measure_dsm: the DsmContext lacks SM ids, clocks or the shared memory size");
}

std::uint64_t wait_budget_cycles(double timeout_ms, double max_clock_hz) {
  return static_cast<std::uint64_t>(timeout_ms * 1e-3 * max_clock_hz);
}

}  // namespace

Measurements measure_dsm(const MeasurementPlan& plan, const DsmContext& ctx, const ProgressFn& progress) {
  require_dsm_capability(ctx.cc_major, ctx.cc_minor);
  check_context(ctx);
  check_dsm_plan(plan, ctx.device, ctx.sm_ids);
  const PlanEntries entries = plan_entries(plan);
  const std::size_t n = entries.wanted.size();
  ClusterCoverage coverage(entries.wanted, ctx.sm_ids);
  const int sm_id_limit = ctx.sm_ids.back() + 1;
  cudaStream_t s = ctx.stream;

  const int probe = static_cast<int>(plan.probe);
  prepare_dsm_kernels(ctx.smem_bytes);
  const std::vector<LaunchShape> shapes = launch_shapes(probe, ctx.smem_bytes);
  std::size_t max_clusters = 0, max_blocks = 0;
  for (const LaunchShape& sh : shapes)
    for (int rotation : {0, 1}) {
      const auto c = static_cast<std::size_t>(clusters_for_launch(sh.fit, rotation, ctx.max_clusters_per_launch));
      max_clusters = std::max(max_clusters, c);
      max_blocks = std::max(max_blocks, c * static_cast<std::size_t>(sh.size));
    }

  const auto key_count = static_cast<std::size_t>(sm_id_limit) * static_cast<std::size_t>(sm_id_limit);
  DsmBuffers buf(n, plan.counts.samples, key_count, max_clusters, max_blocks);
  std::vector<int> entry_sms;
  for (const WantedPair& w : entries.wanted) entry_sms.insert(entry_sms.end(), {w.a, w.b});
  buf.entry_sms.upload(entry_sms, s);
  buf.claimed.zero(s);
  buf.sample_cycles.zero(s);
  buf.cold_cycles.zero(s);
  buf.status.zero(s);

  DsmParams p{};
  p.key_offsets = buf.key_offsets.get();
  p.key_entries = buf.key_entries.get();
  p.sm_id_limit = sm_id_limit;
  p.entry_sms = buf.entry_sms.get();
  p.counts = plan.counts;
  p.probe = probe;
  p.wait_budget_cycles = wait_budget_cycles(plan.timeout_ms, ctx.max_sm_clock_hz);
  p.max_tasks = kDsmMaxTasksPerCluster;
  p.silent_sm = ctx.silent_sm;
  p.claimed = buf.claimed.get();
  p.sample_cycles = buf.sample_cycles.get();
  p.cold_cycles = buf.cold_cycles.get();
  p.status = buf.status.get();
  p.cluster_sms = buf.cluster_sms.get();
  p.barrier_cycles = buf.barrier_cycles.get();
  p.cluster_tasks = buf.cluster_tasks.get();

  Measurements out;
  EventTimer timer;
  nlohmann::json launch_log = nlohmann::json::array();
  std::map<int, std::vector<double>> barrier_cycles_by_size;
  int launches = 0, stale = 0, clusters_sharing_an_sm = 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  DsmStop stop;
  while ((stop = dsm_next_step(coverage, launches, stale, seconds(), ctx.budget)) == DsmStop::Continue) {
    const LaunchShape& shape = shapes[static_cast<std::size_t>(launches) % shapes.size()];
    const int rotation = launches / static_cast<int>(shapes.size());
    const int clusters = clusters_for_launch(shape.fit, rotation, ctx.max_clusters_per_launch);
    const std::vector<std::size_t> pending = coverage.remaining();
    const DsmPairTable table = build_pair_table(entries.wanted, pending, sm_id_limit);
    buf.key_offsets.upload(table.key_offsets, s);
    if (!table.key_entries.empty()) buf.key_entries.upload(table.key_entries, s);

    timer.start(s);
    launch_dsm_pingpong(p, clusters, shape.size, ctx.smem_bytes, s);
    timer.stop(s);
    CUMAP_CUDA_CHECK(cudaStreamSynchronize(s));
    out.stats.device_seconds += timer.elapsed_ms() * 1e-3;
    ++launches;

    const auto blocks = static_cast<std::size_t>(clusters) * static_cast<std::size_t>(shape.size);
    const std::vector<int> sms = buf.cluster_sms.download(blocks, s);
    const std::vector<std::uint64_t> barrier = buf.barrier_cycles.download(static_cast<std::size_t>(clusters), s);
    const std::vector<int> tasks = buf.cluster_tasks.download(static_cast<std::size_t>(clusters), s);
    const std::vector<unsigned> claimed = buf.claimed.download(std::max<std::size_t>(n, 1), s);
    std::size_t newly = 0;
    for (int c = 0; c < clusters; ++c) {
      std::vector<int> members(sms.begin() + c * shape.size, sms.begin() + (c + 1) * shape.size);
      newly += coverage.observe(members);
      std::sort(members.begin(), members.end());
      if (std::adjacent_find(members.begin(), members.end()) != members.end()) ++clusters_sharing_an_sm;
      barrier_cycles_by_size[shape.size].push_back(static_cast<double>(barrier[static_cast<std::size_t>(c)]) /
                                                   kDsmBarrierReps);
    }
    std::size_t measured_now = 0;
    for (std::size_t e : pending) {
      if (claimed[e] == 0) continue;
      coverage.mark_measured(e);
      ++measured_now;
    }
    stale = newly > 0 ? 0 : stale + 1;
    launch_log.push_back({{"cluster_size", shape.size},
                          {"clusters", clusters},
                          {"pairs_measured", measured_now},
                          {"newly_coverable", newly},
                          // At kDsmMaxTasksPerCluster a cluster left pairs for later launches.
                          {"most_pairs_in_a_cluster", *std::max_element(tasks.begin(), tasks.end())},
                          {"device_ms", timer.elapsed_ms()}});
    if (progress) progress(coverage.measured_count(), n);
  }

  const std::vector<std::uint64_t> sample_cycles = buf.sample_cycles.download(buf.sample_cycles.size(), s);
  const std::vector<std::uint64_t> cold_cycles = buf.cold_cycles.download(buf.cold_cycles.size(), s);
  const std::vector<int> status = buf.status.download(buf.status.size(), s);
  for (std::size_t e = 0; e < n; ++e) {
    if (!coverage.measured(e)) continue;
    out.pairs.push_back(decode_dsm_entry(*entries.planned[e], entries.round[e],
                                         &sample_cycles[e * static_cast<std::size_t>(plan.counts.samples)],
                                         cold_cycles[e], status[e], plan.counts, ctx.cycles_per_ns));
  }

  out.stats.launches = launches;
  out.stats.clock_hz = ctx.cycles_per_ns * 1e9;
  out.stats.extra["path"] = "dsm";
  out.stats.extra["coverage"] = coverage.to_json();
  out.stats.extra["launches"] = launch_log;
  out.stats.cluster_barrier = cluster_barrier_table(barrier_cycles_by_size, ctx.cycles_per_ns);
  out.stats.extra["stop_reason"] = to_string(stop);
  out.stats.extra["clusters_sharing_an_sm"] = clusters_sharing_an_sm;
  out.stats.extra["clusters_at_once"] =
      ctx.max_clusters_per_launch > 0 ? nlohmann::json(ctx.max_clusters_per_launch) : nlohmann::json("as many as fit");
  nlohmann::json sizes = nlohmann::json::array();
  for (const LaunchShape& sh : shapes) sizes.push_back({{"cluster_size", sh.size}, {"clusters_that_fit", sh.fit}});
  out.stats.extra["cluster_sizes"] = sizes;
  if (progress) progress(n, n);
  return out;
}

}  // namespace cumap::cuda
