#include "backends/cuda/sm_topology.hpp"

#include "backends/cuda/device_buffer.hpp"
#include "backends/cuda/cluster/cluster_launches.hpp"
#include "core/topology_discovery.hpp"

namespace cumap::cuda {
namespace {

// Enough launches that every SM lands in a large cluster at least once on
// an H100; cheap (each launch is ~0.1 ms).
constexpr int kLaunchesPerSize = 32;
constexpr int kClusterSizes[] = {16, 8, 4, 2};
// Besides one block per SM, blocks small enough for two or four per SM: the
// scheduler then places clusters differently, which adds evidence. A cluster
// never leaves its GPC either way, so more evidence can only merge correctly.
constexpr int kSmemDivisors[] = {1, 2, 4};

}  // namespace

Topology discover_gpcs(int cc_major, std::size_t smem_bytes, const std::vector<int>& sm_ids, cudaStream_t stream) {
  if (cc_major < 9) {
    Topology t;
    t.details["reason"] = "thread block clusters need compute capability 9.0 or newer";
    return t;
  }
  std::vector<std::vector<int>> clusters;
  nlohmann::json sizes = nlohmann::json::array();
  for (int divisor : kSmemDivisors) {
    const std::size_t smem = smem_bytes / divisor;
    for (int size : kClusterSizes) {
      const int fit = max_active_clusters(size, smem);
      if (fit <= 0) {
        sizes.push_back({{"cluster_size", size}, {"shared_memory_bytes", smem}, {"supported", false}});
        continue;
      }
      DeviceBuffer<int> out(static_cast<std::size_t>(fit) * size);
      for (int l = 0; l < kLaunchesPerSize; ++l) {
        launch_cluster_census(out.get(), fit, size, smem, stream);
        const std::vector<int> sm = out.download(out.size(), stream);
        for (int c = 0; c < fit; ++c) clusters.emplace_back(sm.begin() + c * size, sm.begin() + (c + 1) * size);
      }
      sizes.push_back({{"cluster_size", size},
                       {"shared_memory_bytes", smem},
                       {"clusters_per_launch", fit},
                       {"launches", kLaunchesPerSize}});
    }
  }
  Topology t = groups_from_co_residency(clusters, sm_ids, "GPC");
  t.details["cluster_launches"] = sizes;
  t.details["method"] = "SMs seen in one thread block cluster share a GPC (union-find over all launches)";
  return t;
}

}  // namespace cumap::cuda
