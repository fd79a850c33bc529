#pragma once
#include <vector>

namespace cumap::test {

// Units 0 .. n-1, as a device numbers its first n.
inline std::vector<int> first_units(int n) {
  std::vector<int> units;
  for (int u = 0; u < n; ++u) units.push_back(u);
  return units;
}

}  // namespace cumap::test
