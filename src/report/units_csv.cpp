#include "report/units_csv.hpp"

#include <map>

#include <fmt/format.h>

#include "core/map_result.hpp"
#include "core/units.hpp"
#include "report/summary_text.hpp"

namespace cumap {

std::string units_csv(const MapResult& r) {
  const bool across = ids_span_devices(r.display_order);
  std::map<int, int> side;
  const UnitSides sides = unit_sides(r.homes);
  for (std::size_t i = 0; i < sides.units.size() && i < sides.sides.size(); ++i) side[sides.units[i]] = sides.sides[i];
  std::map<int, std::string> group;
  for (const UnitGroup& g : r.topology.groups)
    for (int u : g.units) group.emplace(u, g.name);
  std::string out = "unit,device,unit_index,side,group,display_index\n";
  for (std::size_t i = 0; i < r.display_order.size(); ++i) {
    const int id = r.display_order[i];
    const UnitRef u = unit_ref(id, 0);
    const auto s = side.find(id);
    const auto g = group.find(id);
    out += fmt::format("{},{},{},{},{},{}\n", format_unit_id(id, across), u.device, u.unit,
                       s == side.end() ? std::string() : std::to_string(s->second),
                       g == group.end() ? std::string() : summary_text::csv_field(g->second), i);
  }
  return out;
}

}  // namespace cumap
