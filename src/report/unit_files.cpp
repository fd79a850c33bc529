#include "report/unit_files.hpp"
#include "core/map_result.hpp"

#include <map>
#include <utility>

#include <fmt/format.h>

#include "core/units.hpp"
#include "report/meta_json.hpp"
#include "report/run_summary.hpp"

namespace cumap {
namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

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
                       g == group.end() ? std::string() : csv_field(g->second), i);
  }
  return out;
}

nlohmann::json topology_file_json(const Topology& topology, const RunHomes& homes) {
  nlohmann::json j = to_json(topology);
  if (!homes.empty()) {
    j["sides"] = to_json(home_sides(homes))["groups"];
    j["home_classes"] = class_count(homes);
  }
  return j;
}

void add_unit_and_summary_files(const MapResult& r, std::shared_future<nlohmann::json> meta, PendingFiles& files) {
  files.add("units.csv", [&r] { return units_csv(r); });
  files.add("topology.json", [&r] { return topology_file_json(r.topology, r.homes).dump(2) + "\n"; });
  files.add("summary.md", [meta = std::move(meta)] { return summary_markdown(run_summary(meta.get())); });
}

}  // namespace cumap
