// Which wanted pairs cluster launches have shown together and measured.
#include "plan/cluster_coverage.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "core/stats.hpp"
#include "core/topology_discovery.hpp"

namespace cumap {

ClusterCoverage::ClusterCoverage(std::vector<WantedPair> wanted, std::vector<int> units)
    : wanted_(std::move(wanted)), units_(std::move(units)), measured_(wanted_.size(), false) {
  std::sort(units_.begin(), units_.end());
  units_.erase(std::unique(units_.begin(), units_.end()), units_.end());
  for (std::size_t e = 0; e < wanted_.size(); ++e) entries_by_key_[key(wanted_[e].a, wanted_[e].b)].push_back(e);
}

std::uint64_t ClusterCoverage::key(int a, int b) {
  const auto lo = static_cast<std::uint32_t>(std::min(a, b));
  const auto hi = static_cast<std::uint32_t>(std::max(a, b));
  return (static_cast<std::uint64_t>(lo) << 32) | hi;
}

std::size_t ClusterCoverage::observe(const std::vector<int>& cluster_units) {
  observations_.push_back(cluster_units);
  std::size_t newly = 0;
  for (std::size_t i = 0; i < cluster_units.size(); ++i) {
    for (std::size_t j = i + 1; j < cluster_units.size(); ++j) {
      // Two blocks of one cluster on one SM would be no pair at all.
      if (cluster_units[i] == cluster_units[j]) continue;
      const std::uint64_t k = key(cluster_units[i], cluster_units[j]);
      if (!seen_together_.insert(k).second) continue;
      if (auto it = entries_by_key_.find(k); it != entries_by_key_.end()) newly += it->second.size();
    }
  }
  return newly;
}

void ClusterCoverage::mark_measured(std::size_t entry) {
  if (!measured_.at(entry)) {
    measured_[entry] = true;
    ++measured_count_;
  }
}

bool ClusterCoverage::co_resident(int a, int b) const { return a != b && seen_together_.contains(key(a, b)); }

std::size_t ClusterCoverage::coverable_count() const {
  std::size_t n = 0;
  for (const WantedPair& w : wanted_) n += co_resident(w.a, w.b) ? 1 : 0;
  return n;
}

std::vector<std::size_t> ClusterCoverage::remaining() const {
  std::vector<std::size_t> out;
  for (std::size_t e = 0; e < wanted_.size(); ++e)
    if (!measured_[e]) out.push_back(e);
  return out;
}

std::vector<std::size_t> ClusterCoverage::coverable_unmeasured() const {
  std::vector<std::size_t> out;
  for (std::size_t e = 0; e < wanted_.size(); ++e)
    if (!measured_[e] && co_resident(wanted_[e].a, wanted_[e].b)) out.push_back(e);
  return out;
}

std::vector<GroupCoverage> ClusterCoverage::groups() const {
  // Only groups that clusters actually joined: a unit never seen with another
  // has nothing to measure on this path and would only pad the list.
  const Topology topo = groups_from_co_residency(observations_, units_, "group");
  std::vector<GroupCoverage> out;
  std::map<int, std::size_t> group_of;  // unit -> index in out
  for (const UnitGroup& g : topo.groups) {
    if (g.units.size() < 2) continue;
    for (int u : g.units) group_of[u] = out.size();
    GroupCoverage gc;
    gc.units = g.units;
    std::sort(gc.units.begin(), gc.units.end());
    out.push_back(std::move(gc));
  }
  for (std::size_t e = 0; e < wanted_.size(); ++e) {
    const auto ga = group_of.find(wanted_[e].a);
    const auto gb = group_of.find(wanted_[e].b);
    if (ga == group_of.end() || gb == group_of.end() || ga->second != gb->second) continue;
    GroupCoverage& g = out[ga->second];
    ++g.wanted;
    if (co_resident(wanted_[e].a, wanted_[e].b)) ++g.co_resident;
    if (measured_[e]) ++g.measured;
  }
  std::sort(out.begin(), out.end(), [](const GroupCoverage& x, const GroupCoverage& y) {
    return x.units.front() < y.units.front();
  });
  return out;
}

nlohmann::json ClusterCoverage::to_json() const {
  nlohmann::json groups_json = nlohmann::json::array();
  for (const GroupCoverage& g : groups())
    groups_json.push_back(
        {{"units", g.units}, {"wanted", g.wanted}, {"co_resident", g.co_resident}, {"measured", g.measured}});
  const std::size_t coverable = coverable_count();
  return {{"wanted", wanted_.size()},
          {"coverable", coverable},
          {"measured", measured_count_},
          {"never_co_resident", wanted_.size() - coverable},
          {"clusters_observed", observations_.size()},
          {"groups", groups_json}};
}

}  // namespace cumap
