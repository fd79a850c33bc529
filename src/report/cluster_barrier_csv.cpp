#include "report/cluster_barrier_csv.hpp"

#include <fmt/format.h>

namespace cumap {

std::string cluster_barrier_csv(const std::vector<ClusterBarrierRow>& table) {
  std::string out = "cluster_size,clusters,median_cycles,median_ns\n";
  for (const ClusterBarrierRow& row : table)
    out += fmt::format("{},{},{:.1f},{:.2f}\n", row.cluster_size, row.clusters, row.median_cycles, row.median_ns);
  return out;
}

}  // namespace cumap
