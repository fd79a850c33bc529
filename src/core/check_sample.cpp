// The serial self-check of a concurrent plan: a sample of its pairs, each
// alone in a round, on exactly the flag words it had. Measured serially, it
// must agree with the concurrent map if running pairs together did not
// disturb them.
#include <cstddef>
#include <vector>

#include "cumap/planner.hpp"

namespace cumap {

std::vector<Round> serial_check_sample(const std::vector<Round>& rounds, std::size_t count) {
  std::size_t total = 0;
  for (const Round& r : rounds) total += r.pairs.size();

  std::vector<Round> out;
  if (count >= total) {
    for (const Round& r : rounds)
      for (const PlannedPair& p : r.pairs) out.push_back(Round{{p}});
    return out;
  }
  out.reserve(count);

  // Evenly spaced positions in the plan's pair order spread the sample over
  // the rounds (early and late, so over the whole run). Within a round the
  // slot is then rotated by the round's index: round-robin rounds all have
  // the same size, so an even stride alone would keep hitting the same slot,
  // and with it nearly the same units (the circle method fixes slot 0's unit).
  // Positions inside one round stay distinct under the rotation.
  std::size_t round_index = 0;
  std::size_t round_begin = 0;  // plan position of the round's first pair
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t position = i * total / count;
    while (position >= round_begin + rounds[round_index].pairs.size()) {
      round_begin += rounds[round_index].pairs.size();
      ++round_index;
    }
    const std::size_t size = rounds[round_index].pairs.size();
    const std::size_t slot = (position - round_begin + round_index) % size;
    out.push_back(Round{{rounds[round_index].pairs[slot]}});
  }
  return out;
}

}  // namespace cumap
