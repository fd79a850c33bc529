#include "backends/hip/cu_mask.hpp"

#include <fmt/format.h>

#include "cumap/error.hpp"

namespace cumap {

int hip_unit_count(HipUnit unit, int cu_count) {
  return unit == HipUnit::Wgp ? cu_count / 2 : cu_count;
}

std::string_view hip_unit_name(HipUnit unit) { return unit == HipUnit::Wgp ? "WGP" : "CU"; }

std::vector<std::uint32_t> cu_mask_for_unit(HipUnit unit, int index, int cu_count) {
  const int units = hip_unit_count(unit, cu_count);
  if (index < 0 || index >= units) {
    throw UsageError(fmt::format("{} {} does not exist: the device has {} {}s", hip_unit_name(unit),
                                 index, units, hip_unit_name(unit)));
  }
  std::vector<std::uint32_t> mask(static_cast<std::size_t>((cu_count + 31) / 32), 0u);
  auto set_cu = [&mask](int cu) { mask[cu / 32] |= 1u << (cu % 32); };
  if (unit == HipUnit::Wgp) {
    set_cu(2 * index);
    set_cu(2 * index + 1);
  } else {
    set_cu(index);
  }
  return mask;
}

std::vector<std::uint32_t> cu_mask_for_unit(const XcdStriping& striping, int unit) {
  if (striping.xcds <= 1) return cu_mask_for_unit(HipUnit::Cu, unit, striping.cu_count);
  if (unit < 0 || unit >= striping.cu_count) {
    throw UsageError(fmt::format("CU {} does not exist: the device has {} CUs", unit, striping.cu_count));
  }
  return cu_mask_for_unit(HipUnit::Cu, striping.mask_bit_of_unit(unit), striping.cu_count);
}

std::string format_cu_mask(const std::vector<std::uint32_t>& mask) {
  std::string out = "0x";
  for (auto it = mask.rbegin(); it != mask.rend(); ++it) {
    if (it != mask.rbegin()) out += ':';
    out += fmt::format("{:08x}", *it);
  }
  return out;
}

}  // namespace cumap
