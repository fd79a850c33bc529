#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "backends/hip/hip_runtime.hpp"
#include "cumap/options.hpp"
#include "core/topology.hpp"

namespace cumap {

// Which hardware-id register layout the kernels read.
enum class HwIdLayout {
  Gfx9,      // GCN/CDNA (gfx9xx): HW_REG_HW_ID
  Gfx10Plus, // RDNA (gfx10xx, gfx11xx): HW_REG_HW_ID1
};

// From hipDeviceProp_t::gcnArchName ("gfx90a:sramecc+:xnack-"). Throws
// RuntimeFailure for architectures whose layout we do not know.
HwIdLayout hw_id_layout_for_arch(std::string_view gcn_arch_name);

// Where a wave ran. `cu_or_wgp` is the CU id on gfx9 and the WGP id on gfx10+.
struct HwLocation {
  int xcd = 0;  // MI300: the accelerator complex die (XCC_ID); 0 elsewhere
  int se = 0;
  int sa = 0;  // shader array (SH on gfx9)
  int cu_or_wgp = 0;
  int simd = 0;
  int wave = 0;
  bool operator==(const HwLocation&) const = default;
};

HwLocation decode_hw_id(std::uint32_t raw, HwIdLayout layout);
// HW_ID plus XCC_ID (gfx940+: XCC_ID bits 3:0 name the XCD).
HwLocation decode_hw_reading(const HwReading& reading, HwIdLayout layout);
int decode_xcc_id(std::uint32_t raw_xcc_id);

// "SE1/SA0/CU3" (gfx9) or "SE1/SA0/WGP3" (gfx10+): the slot, without SIMD and wave.
// With `with_xcd`: "XCD3/SE1/SA0/CU3".
std::string format_location(const HwLocation& loc, HwIdLayout layout, bool with_xcd = false);

// Groups units by the shader engine and shader array their kernels ran on,
// groups named "SE0/SA1" and ordered by (SE, SA). `raw_ids[i]` belongs to
// `units[i]`.
Topology hip_topology_from_hw_ids(const std::vector<int>& units,
                                  const std::vector<std::uint32_t>& raw_ids, HwIdLayout layout);
// MI300 and friends: with `xcds` > 1 the groups are "XCD2/SE0/SA1", ordered
// by XCD first, then shader engine and array.
Topology hip_topology_from_hw_readings(const std::vector<int>& units, const std::vector<HwReading>& readings,
                                       HwIdLayout layout, int xcds);

// Checks that the CU masks were honoured: each unit must always run on the
// same hardware slot and, where the register resolves units (CUs on gfx9,
// WGPs on gfx10+), no two units may share one. Problems become warnings,
// which the backend reports in DeviceInfo::extra["hw_id_warnings"].
class HwIdChecker {
 public:
  HwIdChecker(HwIdLayout layout, HipUnit unit, std::string unit_name);
  void record(int unit, std::uint32_t raw_id) { record(unit, HwReading{raw_id, 0}); }
  // `expected_xcd` >= 0: the XCD the unit's mask should have put it on.
  void record(int unit, const HwReading& reading, int expected_xcd = -1);
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct Slot {
    int xcd, se, sa, id;
    auto operator<=>(const Slot&) const = default;
  };
  HwIdLayout layout_;
  bool slots_are_unique_;
  std::string unit_name_;
  std::map<int, HwLocation> first_seen_;
  std::set<int> reported_moving_;  // one warning per unit, not one per launch
  std::set<int> reported_xcd_;
  std::map<Slot, int> owner_;
  std::vector<std::string> warnings_;
};

}  // namespace cumap
