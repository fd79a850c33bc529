// The chip-independent display order: sides first, then topology groups.
#include <algorithm>
#include <charconv>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "core/display_layout.hpp"

namespace cumap {

DisplayLayout side_group_layout(const Topology& topology, const std::vector<int>& units,
                                const std::vector<int>& unit_side, UnitOrder order) {
  DisplayLayout layout;
  if (order == UnitOrder::Index) {
    layout.order = units;
    return layout;
  }
  // Group index of every unit, in the topology's own group order; units no
  // group names come after every group.
  std::map<int, std::size_t> group_of;
  for (std::size_t g = 0; g < topology.groups.size(); ++g)
    for (int u : topology.groups[g].units) group_of[u] = g;
  const std::size_t no_group = topology.groups.size();
  std::map<int, int> side_of;
  for (std::size_t i = 0; i < units.size() && i < unit_side.size(); ++i) side_of[units[i]] = unit_side[i];
  int sides = 0;
  for (const auto& [u, s] : side_of) sides = std::max(sides, s + 1);

  // Ids across devices are unit_id()s: the device is the id's high part.
  const bool several_devices = std::any_of(units.begin(), units.end(),
                                           [&](int u) { return device_of_id(u) != device_of_id(units.front()); });

  layout.order = units;
  const auto key = [&](int u) {
    const auto g = group_of.find(u);
    const auto s = side_of.find(u);
    return std::tuple(device_of_id(u), s == side_of.end() ? 0 : s->second, g == group_of.end() ? no_group : g->second, u);
  };
  std::stable_sort(layout.order.begin(), layout.order.end(), [&](int x, int y) { return key(x) < key(y); });

  // One separator group per (device, side, group) run of the order.
  layout.groups.source = topology.source;
  layout.groups.details = topology.details;
  for (int u : layout.order) {
    const auto [device, side, group, id] = key(u);
    (void)id;
    std::string name = group < no_group ? topology.groups[group].name : "other";
    if (sides > 1) name = fmt::format("S{} {}", side, name);
    if (several_devices) name = fmt::format("g{} {}", device, name);
    if (layout.groups.groups.empty() || layout.groups.groups.back().name != name)
      layout.groups.groups.push_back({name, {}});
    layout.groups.groups.back().units.push_back(u);
  }
  if (layout.groups.groups.size() < 2) layout.groups.groups.clear();
  return layout;
}

DisplayGroupName split_display_group_name(const std::string& name) {
  DisplayGroupName out;
  std::string_view rest = name;
  // A leading "<letter><number> " word, as side_group_layout writes it.
  const auto take = [&rest](char letter) -> std::optional<int> {
    const std::size_t space = rest.find(' ');
    if (rest.size() < 2 || rest.front() != letter || space == std::string_view::npos) return std::nullopt;
    int value = 0;
    const auto [end, error] = std::from_chars(rest.data() + 1, rest.data() + space, value);
    if (error != std::errc() || end != rest.data() + space) return std::nullopt;
    rest.remove_prefix(space + 1);
    return value;
  };
  out.device = take('g');
  out.side = take('S');
  out.group = std::string(rest);
  return out;
}

}  // namespace cumap
