// Which device's memory holds a pair's flags. On one device there is no
// choice. Across devices it matters: over NVLink the unit away from the
// flags' memory pays the link on every poll and signal, and which side that
// is changes the round trip (two H200s: 3400 against 3600-3840 cycles), so
// --flag-on both measures every such pair with the flags on each side.
#include "cumap/planner.hpp"

namespace cumap {

PairRounds place_flags(const PairRounds& rounds, FlagOn flag_on, int default_device) {
  const auto device = [&](int id) { return unit_ref(id, default_device).device; };
  PairRounds placed;
  PairRounds on_b;  // FlagOn::Both: the cross rounds again, flags on b's device
  for (const auto& round : rounds) {
    std::vector<UnitPair> out = round;
    bool across = false;
    for (UnitPair& p : out) {
      const int da = device(p.a), db = device(p.b);
      across |= da != db;
      p.flags_on = flag_on == FlagOn::B ? db : da;
    }
    placed.push_back(out);
    if (flag_on != FlagOn::Both || !across) continue;
    for (UnitPair& p : out) p.flags_on = device(p.b);
    on_b.push_back(std::move(out));
  }
  placed.insert(placed.end(), on_b.begin(), on_b.end());
  return placed;
}

}  // namespace cumap
