#pragma once
// What every summary of a run shows first, whichever command made it (a
// map, `cumap homes`, barrier, contention): the tool and the run, the
// device and how far its backend has been checked, the units and their
// home classes and sides. Computed once from the result; meta.json's keys
// for it are written and read back in one place (report/summary_json.hpp).
#include <string>
#include <vector>

#include "cumap/result.hpp"

namespace cumap {

struct RunHeader {
  std::string tool_version;
  std::string timestamp_utc;
  std::string host;
  std::string command_line;
  double wall_seconds = 0.0;

  std::string backend;
  std::string device_name;
  std::string unit_name;  // as the device names its units; unit_word() where a sentence needs one
  std::string driver_version;
  std::string runtime_version;
  // NVML's serial of each GPU as meta.json records it ("" where it could not
  // tell): one for one GPU, one per GPU the device lists for several; none
  // without a GPU.
  std::vector<std::string> serials;
  // How far the backend's numbers have been checked against a real device
  // (Capabilities::caveat); empty where they have been.
  std::string caveat;

  std::vector<int> units;  // the units measured, ascending (ids by unit_id() across devices)
  // Home discovery's classes and sides (0 and none without homes, as on the
  // dsm path): the most classes of any device, and each side's units
  // ("side0", across devices "g0 side0", home_sides()).
  int class_count = 0;
  std::vector<UnitGroup> sides;

  // "unit" where the device gave its units no name.
  std::string unit_word() const { return unit_name.empty() ? "unit" : unit_name; }
  // Unit ids name their device ("g1.5"): the run spans devices.
  bool across_devices() const;

  bool operator==(const RunHeader&) const = default;
};

RunHeader run_header(const MapResult& result);

}  // namespace cumap
