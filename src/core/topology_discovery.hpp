#pragma once
#include <filesystem>
#include <vector>

#include "core/matrix.hpp"
#include "core/topology.hpp"

namespace cumap {

// Groups units that were ever seen together in one launch of a thread-block
// cluster (each inner vector: the unit ids of one cluster). Union-find; units
// never seen with another form groups of their own. A group is named
// `group_prefix` and its number among such groups ("GPC3"), except two units
// seen together only in clusters of two: that says they share a group, not
// which, so they are named "pair" and their number ("pair0"), not taken for a
// group of their own. `details` records the evidence (launch count, sizes
// used, singletons, pairs).
Topology groups_from_co_residency(const std::vector<std::vector<int>>& clusters,
                                  const std::vector<int>& units, const std::string& group_prefix);

// Adjusted Rand index of two labelings of the same items (1 = identical
// partitions, about 0 = chance agreement).
double adjusted_rand_index(const std::vector<int>& labels_a, const std::vector<int>& labels_b);

// Average-linkage hierarchical clustering of the matrix rows (distance: RMS
// difference of the rows over finite cells) cut into k clusters. Returns a
// label per row.
std::vector<int> cluster_rows(const ValueMatrix& m, int k);

// How well a measured matrix agrees with a topology: the ARI between the row
// clustering (k = number of groups) and the topology's groups.
double topology_agreement(const ValueMatrix& m, const Topology& topo);

// CPU layout from a sysfs tree (normally /sys/devices/system/cpu): groups by
// package and die, with core and SMT siblings in `details`.
Topology cpu_topology_from_sysfs(const std::filesystem::path& cpu_root, const std::vector<int>& cpus);

}  // namespace cumap
