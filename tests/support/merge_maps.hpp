#pragma once
// The pairs of several maps as one map (a placement's per-class maps as its
// headline holds them), for tests that count a placement's pairs or compare
// map_matrices' combined matrix with one map's.
#include <utility>
#include <vector>

#include "cumap/latency_map.hpp"

namespace cumap::test {

inline LatencyMap merge_maps(const std::vector<LatencyMap>& maps, MapSpec spec) {
  LatencyMap merged;
  merged.spec = std::move(spec);
  for (const LatencyMap& m : maps) merged.pairs.insert(merged.pairs.end(), m.pairs.begin(), m.pairs.end());
  return merged;
}

}  // namespace cumap::test
