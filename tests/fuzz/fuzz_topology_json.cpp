// libFuzzer: the topology JSON that `cumap render --order` reads, from
// parsing (as the checked reader parses it: nesting bounded) through the
// checks to the display order it produces.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/error.hpp"
#include "core/topology.hpp"
#include "report/read/checked_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const nlohmann::json j = cumap::parse_checked_json(
        std::string_view(reinterpret_cast<const char*>(data), size));
    const cumap::Topology topology = cumap::topology_from_json(j);
    std::vector<int> units;
    for (int u = 0; u < 64; ++u) units.push_back(u);
    const std::vector<int> order = cumap::topology_order(topology, units);
    if (order.size() != units.size()) __builtin_trap();  // a permutation of the units
    (void)cumap::restrict_topology(topology, units);
  } catch (const cumap::UsageError& e) {
    for (const char* p = e.what(); *p; ++p)
      if (*p == '\n' || *p == '\r') __builtin_trap();
  }
  return 0;
}
