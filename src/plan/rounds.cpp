// Which pairs run together: the serial schedule, round-robin rounds of
// disjoint pairs, and cutting rounds to what a backend can run at once.
#include <algorithm>
#include <cstddef>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "plan/planner.hpp"

namespace cumap {
namespace {

// Each round followed by its mirror image, so that the two directions of a
// pair are measured close together in time, under the same conditions.
PairRounds with_reversed_rounds(const PairRounds& rounds) {
  PairRounds out;
  out.reserve(rounds.size() * 2);
  for (const auto& round : rounds) {
    out.push_back(round);
    std::vector<UnitPair> reversed;
    reversed.reserve(round.size());
    for (const UnitPair& p : round) reversed.push_back({p.b, p.a});
    out.push_back(std::move(reversed));
  }
  return out;
}

}  // namespace

PairRounds serial_rounds(const std::vector<int>& units, bool ordered) {
  PairRounds rounds;
  for (std::size_t i = 0; i < units.size(); ++i)
    for (std::size_t j = i + 1; j < units.size(); ++j) {
      rounds.push_back({{units[i], units[j]}});
      if (ordered) rounds.push_back({{units[j], units[i]}});
    }
  return rounds;
}

PairRounds round_robin_rounds(const std::vector<int>& units, bool ordered) {
  const std::size_t n = units.size();
  if (n < 2) return {};
  // Circle method on positions: position 0 stays, the others rotate one step
  // per round, and round r pairs position i with position m-1-i. An odd count
  // gets a phantom position (the bye): whoever meets it sits the round out.
  const std::size_t m = n % 2 == 0 ? n : n + 1;
  const std::size_t bye = n;  // index past the real units
  std::vector<std::size_t> circle(m);
  for (std::size_t i = 0; i < m; ++i) circle[i] = i;

  PairRounds rounds;
  rounds.reserve(m - 1);
  for (std::size_t r = 0; r + 1 < m; ++r) {
    std::vector<UnitPair> round;
    round.reserve(m / 2);
    for (std::size_t i = 0; i < m / 2; ++i) {
      std::size_t x = circle[i], y = circle[m - 1 - i];
      if (x == bye || y == bye) continue;
      // The unit listed first in `units` pings first, as in the serial schedule.
      if (x > y) std::swap(x, y);
      round.push_back({units[x], units[y]});
    }
    rounds.push_back(std::move(round));
    std::rotate(circle.begin() + 1, circle.end() - 1, circle.end());
  }
  return ordered ? with_reversed_rounds(rounds) : rounds;
}

namespace {

// Rounds of `parts` laid side by side: round k of the result is round k of
// every part that has one (the parts run on different chips at once).
PairRounds side_by_side(const std::vector<PairRounds>& parts) {
  PairRounds out;
  for (const PairRounds& part : parts) {
    if (out.size() < part.size()) out.resize(part.size());
    for (std::size_t k = 0; k < part.size(); ++k) out[k].insert(out[k].end(), part[k].begin(), part[k].end());
  }
  return out;
}

// Every pair of one unit of `x` and one of `y` once: max(|x|, |y|) rounds,
// round r pairing the i-th unit of the smaller set with the (i + r)-th of
// the larger (mod its size), so no unit plays twice in a round. The unit of
// the lower device pings first, as in the serial schedule.
PairRounds bipartite_rounds(const std::vector<int>& x, const std::vector<int>& y) {
  const bool x_small = x.size() <= y.size();
  const std::vector<int>& small = x_small ? x : y;
  const std::vector<int>& large = x_small ? y : x;
  PairRounds rounds(large.size());
  for (std::size_t r = 0; r < large.size(); ++r)
    for (std::size_t i = 0; i < small.size(); ++i) {
      const int s = small[i], l = large[(i + r) % large.size()];
      rounds[r].push_back(x_small ? UnitPair{s, l} : UnitPair{l, s});
    }
  return rounds;
}

}  // namespace

PairRounds device_rounds(const std::vector<int>& units, bool ordered) {
  std::map<int, std::vector<int>> by_device;
  for (int u : units) by_device[device_of_id(u)].push_back(u);
  std::vector<std::vector<int>> devices;
  for (auto& [device, ids] : by_device) devices.push_back(std::move(ids));

  std::vector<PairRounds> own;
  for (const std::vector<int>& ids : devices) own.push_back(round_robin_rounds(ids, false));
  PairRounds rounds = side_by_side(own);
  // Device pairs by the circle method over devices: the pairs of one
  // device-round share no device, so their bipartite rounds run together.
  std::vector<int> device_index(devices.size());
  for (std::size_t d = 0; d < devices.size(); ++d) device_index[d] = static_cast<int>(d);
  for (const auto& device_round : round_robin_rounds(device_index, false)) {
    std::vector<PairRounds> across;
    for (const UnitPair& dp : device_round)
      across.push_back(bipartite_rounds(devices[static_cast<std::size_t>(dp.a)], devices[static_cast<std::size_t>(dp.b)]));
    const PairRounds together = side_by_side(across);
    rounds.insert(rounds.end(), together.begin(), together.end());
  }
  return ordered ? with_reversed_rounds(rounds) : rounds;
}

PairRounds limit_rounds(const PairRounds& rounds, int max_pairs, const std::map<int, int>& exclusive_key) {
  if (max_pairs < 1) throw std::invalid_argument("limit_rounds: max_pairs must be at least 1");
  // Keys a pair holds: its units' exclusive keys (units without one hold
  // nothing, so they never conflict through a key).
  const auto keys_of = [&](const UnitPair& p) {
    std::vector<int> keys;
    for (int u : {p.a, p.b})
      if (auto it = exclusive_key.find(u); it != exclusive_key.end()) keys.push_back(it->second);
    return keys;
  };

  PairRounds out;
  for (const auto& round : rounds) {
    // First fit into the pieces of this round, in order: a round that has no
    // key conflicts is cut into consecutive runs of max_pairs, and where
    // SMT siblings collide a pair waits for the next piece that has room,
    // instead of cutting the round at every collision. Pieces stay in
    // creation order and each keeps the pairs' original relative order.
    std::vector<std::vector<UnitPair>> pieces;
    std::vector<std::set<int>> piece_keys;
    for (const UnitPair& p : round) {
      const std::vector<int> keys = keys_of(p);
      std::size_t target = pieces.size();
      for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (pieces[i].size() >= static_cast<std::size_t>(max_pairs)) continue;
        const bool clash =
            std::any_of(keys.begin(), keys.end(), [&](int k) { return piece_keys[i].count(k) > 0; });
        if (!clash) {
          target = i;
          break;
        }
      }
      if (target == pieces.size()) {
        pieces.emplace_back();
        piece_keys.emplace_back();
      }
      pieces[target].push_back(p);
      piece_keys[target].insert(keys.begin(), keys.end());
    }
    for (auto& piece : pieces) out.push_back(std::move(piece));
  }
  return out;
}

}  // namespace cumap
