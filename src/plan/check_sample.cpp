// The serial self-check of a concurrent plan: a sample of its pairs, each
// alone in a round, on exactly the flag words it had. Measured serially, it
// must agree with the concurrent map if running pairs together did not
// disturb them. The rounds that hold the sample are the pilot: measured
// before the map, they say whether a concurrency will pass.
#include <cstddef>
#include <vector>

#include "plan/planner.hpp"

namespace cumap {

std::vector<PlanPosition> check_sample_positions(const std::vector<Round>& rounds, std::size_t count) {
  std::size_t total = 0;
  for (const Round& round : rounds) total += round.pairs.size();

  std::vector<PlanPosition> out;
  if (count >= total) {
    for (std::size_t r = 0; r < rounds.size(); ++r)
      for (std::size_t s = 0; s < rounds[r].pairs.size(); ++s) out.push_back({r, s});
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
    out.push_back({round_index, (position - round_begin + round_index) % size});
  }
  return out;
}

std::vector<Round> serial_check_sample(const std::vector<Round>& rounds, std::size_t count) {
  std::vector<Round> out;
  for (const PlanPosition& p : check_sample_positions(rounds, count))
    out.push_back(Round{{rounds[p.round].pairs[p.slot]}});
  return out;
}

std::vector<Round> pilot_rounds(const std::vector<Round>& rounds, std::size_t count) {
  std::vector<Round> out;
  std::size_t last = rounds.size();  // positions come in plan order: a round repeats only next to itself
  for (const PlanPosition& p : check_sample_positions(rounds, count))
    if (p.round != last) out.push_back(rounds[last = p.round]);
  return out;
}

}  // namespace cumap
