// libFuzzer: the matrix CSV reader behind `cumap render`. Any input either
// parses into a square matrix or is rejected with a one-line UsageError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cumap/error.hpp"
#include "report/read/matrix_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const cumap::ValueMatrix m = cumap::parse_matrix_csv(text);
    if (m.values.size() != m.units.size() * m.units.size()) __builtin_trap();
  } catch (const cumap::UsageError& e) {
    for (const char* p = e.what(); *p; ++p)
      if (*p == '\n' || *p == '\r') __builtin_trap();  // error messages are one line
  }
  return 0;
}
