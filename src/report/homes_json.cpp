#include "report/homes_json.hpp"

#include <algorithm>
#include <string>

#include "report/json_number.hpp"

namespace cumap {
namespace {

nlohmann::json device_homes_json(const HomesResult& h) {
  const HomeClasses& c = h.classes;
  nlohmann::json classes = nlohmann::json::array();
  for (int k = 0; k < c.class_count; ++k) {
    nlohmann::json near_units = nlohmann::json::array();
    for (std::size_t u = 0; u < h.unit_ids.size(); ++u)
      if (c.unit_side[u] == k) near_units.push_back(h.unit_ids[u]);
    classes.push_back({{"class", k},
                       {"lines", std::count(c.line_class.begin(), c.line_class.end(), k)},
                       {"near_units", near_units},
                       {"median_ns_by_unit", c.class_unit_ns[static_cast<std::size_t>(k)]}});
  }
  nlohmann::json line_class = nlohmann::json::object();
  for (std::size_t l = 0; l < h.table.lines.size(); ++l) line_class[std::to_string(h.table.lines[l])] = c.line_class[l];
  return {{"device", h.device},
          {"arena", {{"bytes", h.arena.bytes}, {"offset_bytes", h.arena.offset_bytes}}},
          {"class_count", c.class_count},
          {"separation", number_or_null(c.separation)},
          {"units", h.unit_ids},
          {"unit_side", c.unit_side},
          {"classes", classes},
          {"line_class", line_class}};
}

}  // namespace

nlohmann::json homes_json(const RunHomes& homes) {
  if (homes.size() == 1) return device_homes_json(homes.front());
  nlohmann::json devices = nlohmann::json::array();
  for (const HomesResult& h : homes) devices.push_back(device_homes_json(h));
  return {{"devices", devices}};
}

}  // namespace cumap
