#include "core/run_header.hpp"

#include <set>

#include "core/map_result.hpp"
#include "core/units.hpp"

namespace cumap {

bool RunHeader::across_devices() const { return ids_span_devices(units); }

RunHeader run_header(const MapResult& r) {
  RunHeader h;
  h.tool_version = r.run.tool_version;
  h.timestamp_utc = r.run.timestamp_utc;
  h.host = r.run.host_name;
  h.command_line = r.run.command_line;
  h.wall_seconds = r.run.wall_seconds;

  const DeviceInfo& d = r.device;
  h.backend = d.backend;
  h.device_name = d.name;
  h.unit_name = d.unit_name;
  h.driver_version = d.driver_version;
  h.runtime_version = d.runtime_version;
  // Several GPUs keep their serials in the entries the device lists for
  // them (DeviceInfo::extra's "gpus"), one GPU beside its other facts.
  if (d.gpus.size() == 1) h.serials.push_back(d.gpus.front().serial);
  const nlohmann::json* listed = d.extra.is_object() && d.extra.contains("gpus") ? &d.extra["gpus"] : nullptr;
  if (d.gpus.size() > 1 && listed && listed->is_array())
    for (std::size_t i = 0; i < d.gpus.size() && i < listed->size(); ++i) h.serials.push_back(d.gpus[i].serial);
  h.caveat = r.capabilities.caveat;

  const std::set<int> units(r.display_order.begin(), r.display_order.end());
  h.units.assign(units.begin(), units.end());
  if (!r.homes.empty()) {
    h.class_count = r.homes.size() == 1 ? r.homes.front().classes.class_count : class_count(r.homes);
    h.sides = home_sides(r.homes).groups;
  }
  return h;
}

}  // namespace cumap
