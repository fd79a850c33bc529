// Which device's memory holds a pair's flags. On one device there is no
// choice. Across devices it matters: over NVLink the unit away from the
// flags' memory pays the link on every poll and signal, and which side that
// is changes the round trip (two H200s: 3400 against 3600-3840 cycles), so
// --flag-on both measures every such pair with the flags on each side.
#include <algorithm>
#include <map>

#include "plan/planner.hpp"

namespace cumap {

PairRounds place_flags(const PairRounds& rounds, FlagOn flag_on, int default_device) {
  const auto device = [&](int id) { return unit_ref(id, default_device).device; };
  PairRounds placed;
  PairRounds second;  // FlagOn::Both: the rounds across devices again, every side swapped
  for (const auto& round : rounds) {
    std::vector<UnitPair> out = round;
    std::vector<UnitPair> swapped;
    std::size_t across = 0;
    for (UnitPair& p : out) {
      const int da = device(p.a), db = device(p.b);
      if (da == db) {
        p.flags_on = da;
        continue;
      }
      // Both: alternate the sides within the round, so that its flags (and
      // the link's traffic) are spread over the two devices' memories, each
      // needing half the lines; the second copy takes the other side.
      const bool on_a = flag_on == FlagOn::A || (flag_on == FlagOn::Both && across++ % 2 == 0);
      p.flags_on = on_a ? da : db;
      swapped.push_back({p.a, p.b, on_a ? db : da});
    }
    placed.push_back(std::move(out));
    if (flag_on == FlagOn::Both && !swapped.empty()) second.push_back(std::move(swapped));
  }
  placed.insert(placed.end(), second.begin(), second.end());
  return placed;
}

PairRounds cap_flags_per_device(const PairRounds& rounds, const std::map<int, int>& most) {
  PairRounds out;
  for (const auto& round : rounds) {
    // First fit, as limit_rounds: each pair goes to the first piece whose
    // flag device still has room, pieces in creation order.
    std::vector<std::vector<UnitPair>> pieces;
    std::vector<std::map<int, int>> used;
    for (const UnitPair& p : round) {
      const auto cap = most.find(p.flags_on);
      const int limit = cap == most.end() ? std::max<int>(1, static_cast<int>(round.size())) : std::max(cap->second, 1);
      std::size_t target = 0;
      while (target < pieces.size() && used[target][p.flags_on] >= limit) ++target;
      if (target == pieces.size()) {
        pieces.emplace_back();
        used.emplace_back();
      }
      pieces[target].push_back(p);
      ++used[target][p.flags_on];
    }
    for (auto& piece : pieces) out.push_back(std::move(piece));
  }
  return out;
}

}  // namespace cumap
