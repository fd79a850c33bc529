// libFuzzer: the --units parser. The first two bytes choose the device's
// unit count (up to 4096), the rest is the list.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cumap/error.hpp"
#include "core/units.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const int unit_count = (data[0] | (data[1] << 8)) % 4097;
  const std::string_view spec(reinterpret_cast<const char*>(data + 2), size - 2);
  try {
    const auto units = cumap::parse_unit_list(spec, unit_count);
    for (std::size_t i = 0; i < units.size(); ++i)
      if (units[i] < 0 || units[i] >= unit_count || (i > 0 && units[i] <= units[i - 1])) __builtin_trap();
    if (!units.empty() && cumap::parse_unit_list(cumap::format_unit_list(units), unit_count) != units) __builtin_trap();
  } catch (const cumap::UsageError& e) {
    for (const char* p = e.what(); *p; ++p)
      if (*p == '\n' || *p == '\r') __builtin_trap();
  }
  return 0;
}
