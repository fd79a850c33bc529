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

// "0x00000000:00000020" (most significant word first), for error messages.
std::string format_cu_mask(const std::vector<std::uint32_t>& mask);

}  // namespace cumap
