#pragma once
// Bookkeeping of a cluster-bound map (--via dsm): two SMs can only signal
// through distributed shared memory when the hardware puts them in one
// thread-block cluster, and where clusters land is the scheduler's choice.
// So the measuring side launches clusters again and again, reports which SMs
// each cluster got, and this class keeps track of which wanted pairs have
// been seen together (coverable), which were measured, and what is left.
// Plain C++, tested without a GPU.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/backend.hpp"
#include "cumap/values.hpp"

namespace cumap {

// One wanted measurement: the plan's pair (a pings first). A plan may want a
// pair more than once (both directions when ordered, several tags); each is
// its own entry, numbered in plan order.
struct WantedPair {
  int a = 0;
  int b = 0;
};

// Wanted pairs among the units of one group: units that were seen together
// in clusters, directly or through others (the GPC on NVIDIA GPUs).
struct GroupCoverage {
  std::vector<int> units;
  std::size_t wanted = 0;       // entries with both units in the group
  std::size_t co_resident = 0;  // of those, entries whose two units shared a cluster
  std::size_t measured = 0;
};

class ClusterCoverage {
 public:
  // `units`: every unit clusters can land on (the groups are formed over them).
  ClusterCoverage(std::vector<WantedPair> wanted, std::vector<int> units);

  // One cluster of one launch: the unit ids of its blocks. Returns how many
  // wanted entries it made coverable for the first time (0 for a cluster that
  // shows nothing new: the sign that more launches will not help).
  std::size_t observe(const std::vector<int>& cluster_units);

  void mark_measured(std::size_t entry);
  bool measured(std::size_t entry) const { return measured_[entry]; }
  // Whether units a and b were ever in one cluster (either order).
  bool co_resident(int a, int b) const;

  std::size_t measured_count() const { return measured_count_; }
  std::size_t coverable_count() const;  // entries whose units shared a cluster
  bool all_measured() const { return measured_count_ == wanted_.size(); }

  // Entries not measured yet, ascending.
  std::vector<std::size_t> remaining() const;
  // Entries seen together in a cluster but not measured (a cluster ran out of
  // task slots, say): launching more can still measure them.
  std::vector<std::size_t> coverable_unmeasured() const;

  // Groups by union of the observed clusters, in the order of their smallest unit.
  std::vector<GroupCoverage> groups() const;
  // {"wanted", "coverable", "measured", "never_co_resident", "clusters_observed",
  //  "groups": [{"units", "wanted", "co_resident", "measured"}]}
  nlohmann::json to_json() const;

  const std::vector<WantedPair>& wanted() const { return wanted_; }
  const std::vector<std::vector<int>>& observations() const { return observations_; }

 private:
  static std::uint64_t key(int a, int b);  // unordered pair key

  std::vector<WantedPair> wanted_;
  std::vector<int> units_;
  std::vector<bool> measured_;
  std::size_t measured_count_ = 0;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> entries_by_key_;
  std::unordered_set<std::uint64_t> seen_together_;
  std::vector<std::vector<int>> observations_;
};

}  // namespace cumap
