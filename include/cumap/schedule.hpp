#pragma once
#include <cstddef>
#include <vector>

namespace cumap {

// One measured pair. For ordered schedules `a` is the side that starts each
// round trip (the pinger); for unordered ones each sample is half a->b, half b->a.
struct Pair {
  int a;
  int b;
  bool operator==(const Pair&) const = default;
};

struct Schedule {
  std::vector<int> units;  // the units taking part, ascending
  std::vector<Pair> pairs;
  bool ordered = false;
};

// Every unordered pair {a,b}, a<b, exactly once (or both directions when
// `ordered`), in row-major order of the unit list.
Schedule make_schedule(std::vector<int> units, bool ordered);

}  // namespace cumap
