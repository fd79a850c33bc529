#include <unordered_map>

#include "cumap/render.hpp"

namespace cumap {

std::vector<AxisGroup> axis_groups(const std::vector<int>& units, const Topology& topology) {
  std::unordered_map<int, std::size_t> group_of;
  for (std::size_t g = 0; g < topology.groups.size(); ++g)
    for (int unit : topology.groups[g].units) group_of.emplace(unit, g);
  constexpr std::size_t kNoGroup = static_cast<std::size_t>(-1);

  std::vector<AxisGroup> spans;
  std::size_t current = kNoGroup;
  for (std::size_t i = 0; i < units.size(); ++i) {
    const auto it = group_of.find(units[i]);
    const std::size_t g = it == group_of.end() ? kNoGroup : it->second;
    if (spans.empty() || g != current) {
      spans.push_back({static_cast<int>(i), static_cast<int>(i), g == kNoGroup ? "" : topology.groups[g].name});
      current = g;
    }
    spans.back().end = static_cast<int>(i) + 1;
  }
  return spans;
}

}  // namespace cumap
