#include "backends/hip/hw_id.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "cumap/error.hpp"

namespace cumap {

// Register layouts, as documented in AMD's own sources:
//  - gfx9 HW_ID (hwreg 4): ROCm-Device-Libs hip/src/smid.cl and the
//    "HW_ID Register bit structure for GCN and CDNA" comment in ROCm's
//    rocprofiler/omniperf sources: WAVE_ID 3:0, SIMD_ID 5:4, PIPE_ID 7:6,
//    CU_ID 11:8, SH_ID 12, SE_ID 15:13 on gfx908/gfx90a (14:13 on Vega, where
//    bit 15 reads 0, so three bits are right for every gfx9), TG_ID 19:16,
//    VM_ID 23:20, QUEUE_ID 26:24, STATE_ID 29:27, ME_ID 31:30.
//  - gfx10+ HW_ID1 (hwreg 23): AMD's embers library amdgpu/hwid.h and the
//    RDNA ISA guides: WAVE_ID 4:0, SIMD_ID 9:8, WGP_ID 13:10, SA_ID 16,
//    SE_ID 20:18 (19:18 on gfx10, bit 20 reserved as 0; 20:18 on gfx11).
//  - gfx940+ (MI300) HW_ID has the gfx9 layout and no XCD field; XCC_ID
//    (hwreg 20) holds the XCC (XCD) id in bits 3:0 (LLVM's AMDGPU hwreg
//    table and the MI300 ISA guide). Not yet checked on hardware.
namespace {
constexpr int bits(std::uint32_t v, int hi, int lo) {
  return static_cast<int>((v >> lo) & ((1u << (hi - lo + 1)) - 1u));
}
}  // namespace

HwIdLayout hw_id_layout_for_arch(std::string_view arch) {
  if (arch.starts_with("gfx9")) return HwIdLayout::Gfx9;
  if (arch.starts_with("gfx10") || arch.starts_with("gfx11")) return HwIdLayout::Gfx10Plus;
  throw RuntimeFailure(fmt::format(
      "the HIP backend does not know the hardware-id layout of {} (it supports gfx9, gfx10, gfx11)",
      arch));
}

HwLocation decode_hw_id(std::uint32_t raw, HwIdLayout layout) {
  HwLocation loc;
  if (layout == HwIdLayout::Gfx9) {
    loc.wave = bits(raw, 3, 0);
    loc.simd = bits(raw, 5, 4);
    loc.cu_or_wgp = bits(raw, 11, 8);
    loc.sa = bits(raw, 12, 12);
    loc.se = bits(raw, 15, 13);
  } else {
    loc.wave = bits(raw, 4, 0);
    loc.simd = bits(raw, 9, 8);
    loc.cu_or_wgp = bits(raw, 13, 10);
    loc.sa = bits(raw, 16, 16);
    loc.se = bits(raw, 20, 18);
  }
  return loc;
}

int decode_xcc_id(std::uint32_t raw_xcc_id) { return bits(raw_xcc_id, 3, 0); }

HwLocation decode_hw_reading(const HwReading& reading, HwIdLayout layout) {
  HwLocation loc = decode_hw_id(reading.hw_id, layout);
  loc.xcd = decode_xcc_id(reading.xcc_id);
  return loc;
}

std::string format_location(const HwLocation& loc, HwIdLayout layout, bool with_xcd) {
  return fmt::format("{}SE{}/SA{}/{}{}", with_xcd ? fmt::format("XCD{}/", loc.xcd) : "", loc.se, loc.sa,
                     layout == HwIdLayout::Gfx9 ? "CU" : "WGP", loc.cu_or_wgp);
}

Topology hip_topology_from_hw_ids(const std::vector<int>& units,
                                  const std::vector<std::uint32_t>& raw_ids, HwIdLayout layout) {
  std::vector<HwReading> readings;
  for (std::uint32_t raw : raw_ids) readings.push_back({raw, 0});
  return hip_topology_from_hw_readings(units, readings, layout, 1);
}

Topology hip_topology_from_hw_readings(const std::vector<int>& units, const std::vector<HwReading>& readings,
                                       HwIdLayout layout, int xcds) {
  if (units.size() != readings.size()) {
    throw RuntimeFailure("hip_topology_from_hw_ids: one HW_ID per unit expected");
  }
  std::map<std::tuple<int, int, int>, std::vector<int>> by_array;  // (xcd, se, sa): XCD first
  nlohmann::json per_unit = nlohmann::json::array();
  for (std::size_t i = 0; i < units.size(); ++i) {
    const HwLocation loc = decode_hw_reading(readings[i], layout);
    by_array[{loc.xcd, loc.se, loc.sa}].push_back(units[i]);
    per_unit.push_back({{"unit", units[i]},
                        {"xcd", loc.xcd},
                        {"se", loc.se},
                        {"sa", loc.sa},
                        {layout == HwIdLayout::Gfx9 ? "cu" : "wgp", loc.cu_or_wgp},
                        {"raw", readings[i].hw_id},
                        {"raw_xcc_id", readings[i].xcc_id}});
  }
  Topology topo;
  topo.source = "hw_id";
  for (auto& [key, members] : by_array) {
    const auto [xcd, se, sa] = key;
    std::sort(members.begin(), members.end());
    const std::string name = xcds > 1 ? fmt::format("XCD{}/SE{}/SA{}", xcd, se, sa) : fmt::format("SE{}/SA{}", se, sa);
    topo.groups.push_back(UnitGroup{name, members});
  }
  topo.details = {{"register", layout == HwIdLayout::Gfx9 ? "HW_ID" : "HW_ID1"},
                  {"units", per_unit}};
  return topo;
}

HwIdChecker::HwIdChecker(HwIdLayout layout, HipUnit unit, std::string unit_name)
    : layout_(layout),
      // In CU mode on gfx10+ both CUs of a WGP report the same WGP id, so
      // only a unit's own stability can be checked there.
      slots_are_unique_(layout == HwIdLayout::Gfx9 || unit == HipUnit::Wgp),
      unit_name_(std::move(unit_name)) {}

void HwIdChecker::record(int unit, const HwReading& reading, int expected_xcd) {
  const HwLocation loc = decode_hw_reading(reading, layout_);
  if (expected_xcd >= 0 && loc.xcd != expected_xcd && reported_xcd_.insert(unit).second) {
    warnings_.push_back(fmt::format("{} {} ran on XCD {} but its mask was built for XCD {}: the driver does not "
                                    "stripe CU masks across XCDs as cumap assumes",
                                    unit_name_, unit, loc.xcd, expected_xcd));
  }
  auto [seen, inserted] = first_seen_.try_emplace(unit, loc);
  const HwLocation& first = seen->second;
  if (!inserted) {
    if (!reported_moving_.contains(unit) &&
        std::tie(first.xcd, first.se, first.sa, first.cu_or_wgp) != std::tie(loc.xcd, loc.se, loc.sa, loc.cu_or_wgp)) {
      warnings_.push_back(fmt::format("{} {} ran on {} but earlier on {}: its CU mask was not honoured",
                                      unit_name_, unit, format_location(loc, layout_, loc.xcd || first.xcd),
                                      format_location(first, layout_, loc.xcd || first.xcd)));
      reported_moving_.insert(unit);
    }
    return;
  }
  if (!slots_are_unique_) return;
  auto [owner, fresh] = owner_.try_emplace(Slot{loc.xcd, loc.se, loc.sa, loc.cu_or_wgp}, unit);
  if (!fresh && owner->second != unit) {
    warnings_.push_back(fmt::format("{}s {} and {} both ran on {}: their CU masks overlap in hardware",
                                    unit_name_, owner->second, unit, format_location(loc, layout_, loc.xcd > 0)));
  }
}

}  // namespace cumap
