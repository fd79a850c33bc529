#include "report/units_csv.hpp"

#include <map>

#include <fmt/format.h>

#include "core/map_result.hpp"
#include "core/units.hpp"
#include "report/summary_text.hpp"

namespace cumap {

std::string units_csv(const UnitsTable& t, const RunSummary& summary) {
  const bool across = ids_span_devices(t.display_order);
  std::map<int, std::string> group;
  for (const UnitGroup& g : t.topology.groups)
    for (int u : g.units) group.emplace(u, g.name);
  std::map<int, double> term;
  for (std::size_t i = 0; i < summary.unit_terms.units.size() && i < summary.unit_terms.term_ns.size(); ++i)
    term.emplace(summary.unit_terms.units[i], summary.unit_terms.term_ns[i]);
  std::string out = "unit,device,unit_index,side,group,display_index,fit_term_ns\n";
  for (std::size_t i = 0; i < t.display_order.size(); ++i) {
    const int id = t.display_order[i];
    const UnitRef u = unit_ref(id, 0);
    const auto s = t.side.find(id);
    const auto g = group.find(id);
    const auto f = term.find(id);
    out += fmt::format("{},{},{},{},{},{},{}\n", format_unit_id(id, across), u.device, u.unit,
                       s == t.side.end() ? std::string() : std::to_string(s->second),
                       g == group.end() ? std::string() : summary_text::csv_field(g->second), i,
                       f == term.end() ? std::string() : summary_text::csv_number(f->second));
  }
  return out;
}

std::string units_csv(const MapResult& r, const RunSummary& summary) {
  UnitsTable t{r.display_order, {}, r.topology};
  const UnitSides sides = unit_sides(r.homes);
  for (std::size_t i = 0; i < sides.units.size() && i < sides.sides.size(); ++i) t.side[sides.units[i]] = sides.sides[i];
  return units_csv(t, summary);
}

}  // namespace cumap
