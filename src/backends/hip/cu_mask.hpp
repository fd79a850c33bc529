#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cumap/options.hpp"

namespace cumap {

// Number of units the backend exposes: CUs, or WGPs (two CUs each).
int hip_unit_count(HipUnit unit, int cu_count);
std::string_view hip_unit_name(HipUnit unit);  // "CU" / "WGP"

// The hipExtStreamCreateWithCUMask mask that confines a stream to one unit:
// ceil(cu_count / 32) words, bit i of word i/32 is CU i. A WGP w covers CUs
// 2w and 2w+1: on gfx10+ the kernel driver reads the mask two bits per WGP
// and wants both set. Throws UsageError for a unit outside the device.
std::vector<std::uint32_t> cu_mask_for_unit(HipUnit unit, int index, int cu_count);

// MI300: the driver stripes a linear CU mask across the XCDs, bit i running
// on XCD i % xcds as that XCD's CU i / xcds. cumap numbers units XCD by XCD
// (unit u is CU u % per_xcd of XCD u / per_xcd, per_xcd = cu_count / xcds),
// so a map's blocks are XCDs; this is the mask bit of unit u. xcds == 1
// (every other GPU): bit u.
struct XcdStriping {
  int xcds = 1;
  int cu_count = 0;
  int per_xcd() const { return cu_count / xcds; }
  int xcd_of_unit(int unit) const { return unit / per_xcd(); }
  int mask_bit_of_unit(int unit) const { return unit % per_xcd() * xcds + unit / per_xcd(); }
};
std::vector<std::uint32_t> cu_mask_for_unit(const XcdStriping& striping, int unit);

// "0x00000000:00000020" (most significant word first), for error messages.
std::string format_cu_mask(const std::vector<std::uint32_t>& mask);

}  // namespace cumap
