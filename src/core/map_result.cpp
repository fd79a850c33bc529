#include "cumap/map_result.hpp"

namespace cumap {

std::vector<PairStats> MapResult::timed_out() const {
  std::vector<PairStats> out;
  for (const PlacementResult& p : placements)
    for (const PairStats& s : p.headline.timed_out()) out.push_back(s);
  return out;
}

}  // namespace cumap
