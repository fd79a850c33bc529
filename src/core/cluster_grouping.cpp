// Topology from thread-block-cluster co-residency: units that the hardware
// ever scheduled into one cluster launch must share a GPC, so every observed
// cluster merges its units, and the connected components are the groups.
#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/topology_discovery.hpp"

namespace cumap {
namespace {

// Disjoint sets over dense indices, with path halving and union by size so
// thousands of launches over a few hundred units stay cheap.
class DisjointSets {
 public:
  explicit DisjointSets(std::size_t n) : parent_(n), size_(n, 1) {
    std::iota(parent_.begin(), parent_.end(), std::size_t{0});
  }
  std::size_t find(std::size_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  void unite(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
  }

 private:
  std::vector<std::size_t> parent_;
  std::vector<std::size_t> size_;
};

}  // namespace

Topology groups_from_co_residency(const std::vector<std::vector<int>>& clusters,
                                  const std::vector<int>& units, const std::string& group_prefix) {
  std::vector<int> sorted_units = units;
  std::sort(sorted_units.begin(), sorted_units.end());
  sorted_units.erase(std::unique(sorted_units.begin(), sorted_units.end()), sorted_units.end());

  std::unordered_map<int, std::size_t> index_of;
  for (std::size_t i = 0; i < sorted_units.size(); ++i) index_of[sorted_units[i]] = i;

  DisjointSets sets(sorted_units.size());
  // Per unit, the most mapped units any cluster it was in held.
  std::vector<std::size_t> largest_cluster(sorted_units.size(), 0);
  for (const auto& cluster : clusters) {
    // Ids outside `units` (e.g. units the user excluded) carry no evidence
    // about the units we map, so they are skipped rather than merged through.
    std::size_t first = sorted_units.size();
    std::vector<std::size_t> members;
    for (int id : cluster) {
      auto it = index_of.find(id);
      if (it == index_of.end()) continue;
      members.push_back(it->second);
      if (first == sorted_units.size()) first = it->second;
      else sets.unite(first, it->second);
    }
    for (std::size_t m : members) largest_cluster[m] = std::max(largest_cluster[m], members.size());
  }

  // Walking units in ascending order assigns each component its slot when its
  // smallest unit is met, which gives both the group order and ascending units.
  std::unordered_map<std::size_t, std::size_t> group_of_root;
  Topology topo;
  topo.source = "clusters";
  std::vector<std::size_t> largest;  // per group: the largest cluster any of its units was in
  for (std::size_t i = 0; i < sorted_units.size(); ++i) {
    std::size_t root = sets.find(i);
    auto [it, inserted] = group_of_root.try_emplace(root, topo.groups.size());
    if (inserted) {
      topo.groups.push_back({{}, {}});
      largest.push_back(0);
    }
    topo.groups[it->second].units.push_back(sorted_units[i]);
    largest[it->second] = std::max(largest[it->second], largest_cluster[i]);
  }
  int groups = 0, pairs = 0;
  std::vector<int> pair_units;
  for (std::size_t g = 0; g < topo.groups.size(); ++g) {
    UnitGroup& group = topo.groups[g];
    if (group.units.size() == 2 && largest[g] == 2) {
      group.name = "pair" + std::to_string(pairs++);
      pair_units.insert(pair_units.end(), group.units.begin(), group.units.end());
    } else {
      group.name = group_prefix + std::to_string(groups++);
    }
  }

  std::vector<int> singletons;
  std::vector<int> group_sizes;
  for (const auto& g : topo.groups) {
    group_sizes.push_back(static_cast<int>(g.units.size()));
    if (g.units.size() == 1) singletons.push_back(g.units.front());
  }
  topo.details = {{"clusters_observed", clusters.size()}, {"singletons", singletons}, {"group_sizes", group_sizes}};
  if (!pair_units.empty()) topo.details["seen_only_in_clusters_of_two"] = pair_units;
  return topo;
}

}  // namespace cumap
