// Planning a map across devices, in plain C++: rounds that keep each chip's
// own pairs apart from the pairs across chips, whose memory holds the flags
// of each pair, and lines dealt from the right device.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "plan/planner.hpp"
#include "core/units.hpp"

namespace cumap {
namespace device_rounds_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

// Units 0..n-1 of each device, named by unit_id().
std::vector<int> units_of(const std::vector<int>& devices, int n) {
  std::vector<int> ids;
  for (int d : devices)
    for (int u = 0; u < n; ++u) ids.push_back(unit_id(UnitRef{d, u}));
  return ids;
}

void expect_disjoint_rounds(const PairRounds& rounds) {
  for (const auto& round : rounds) {
    std::set<int> used;
    for (const UnitPair& p : round) {
      EXPECT_TRUE(used.insert(p.a).second) << "unit " << p.a << " twice in a round";
      EXPECT_TRUE(used.insert(p.b).second) << "unit " << p.b << " twice in a round";
    }
  }
}

TEST(DeviceRounds, EveryPairOnceOwnPairsFirstRoundsDisjoint) {
  for (int n : {4, 5, 8}) {
    const std::vector<int> units = units_of({0, 1}, n);
    const PairRounds rounds = device_rounds(units, false);
    expect_disjoint_rounds(rounds);
    std::map<std::pair<int, int>, int> seen;
    bool across_started = false;
    for (const auto& round : rounds) {
      bool any_across = false, any_own = false;
      for (const UnitPair& p : round) {
        ++seen[{std::min(p.a, p.b), std::max(p.a, p.b)}];
        (device_of_id(p.a) == device_of_id(p.b) ? any_own : any_across) = true;
        if (device_of_id(p.a) != device_of_id(p.b)) {
          EXPECT_LT(device_of_id(p.a), device_of_id(p.b)) << "the lower GPU pings first";
        }
      }
      EXPECT_FALSE(any_own && any_across) << "a round mixes a chip's own pairs with pairs across chips";
      if (any_across) across_started = true;
      EXPECT_FALSE(across_started && any_own) << "own pairs after the pairs across devices";
    }
    const std::size_t total = 2 * n;
    EXPECT_EQ(seen.size(), total * (total - 1) / 2) << n;
    for (const auto& [pair, count] : seen) EXPECT_EQ(count, 1);
  }
}

TEST(DeviceRounds, BothChipsOwnRoundsRunSideBySideAndAcrossRoundsAreFull) {
  const PairRounds rounds = device_rounds(units_of({0, 1}, 8), false);
  // 7 rounds of 4 + 4 own pairs, then 8 bipartite rounds of 8.
  ASSERT_EQ(rounds.size(), 15u);
  for (std::size_t r = 0; r < 7; ++r) EXPECT_EQ(rounds[r].size(), 8u);
  for (std::size_t r = 7; r < 15; ++r) EXPECT_EQ(rounds[r].size(), 8u);
}

TEST(DeviceRounds, UnequalChipsAndFourDevices) {
  std::vector<int> units = units_of({0}, 3);
  const std::vector<int> more = units_of({1}, 5);
  units.insert(units.end(), more.begin(), more.end());
  PairRounds rounds = device_rounds(units, false);
  expect_disjoint_rounds(rounds);
  std::size_t pairs = 0;
  for (const auto& r : rounds) pairs += r.size();
  EXPECT_EQ(pairs, 8u * 7u / 2u);

  rounds = device_rounds(units_of({0, 1, 2, 3}, 2), true);  // ordered: both directions
  expect_disjoint_rounds(rounds);
  std::set<std::pair<int, int>> directed;
  for (const auto& r : rounds)
    for (const UnitPair& p : r) EXPECT_TRUE(directed.insert({p.a, p.b}).second);
  EXPECT_EQ(directed.size(), 8u * 7u);
}

TEST(PlaceFlags, OnOneDeviceItsOwnAcrossEitherSideOrBoth) {
  const PairRounds rounds{{{0, 1}, {100002, 100003}}, {{2, 100001}}};
  const PairRounds a = place_flags(rounds, FlagOn::A, 0);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0][0].flags_on, 0);
  EXPECT_EQ(a[0][1].flags_on, 1);
  EXPECT_EQ(a[1][0].flags_on, 0);
  EXPECT_EQ(place_flags(rounds, FlagOn::B, 0)[1][0].flags_on, 1);
  // Both: the round across devices comes again with the flags on b's side;
  // the round with only own pairs does not.
  const PairRounds both = place_flags(rounds, FlagOn::Both, 0);
  ASSERT_EQ(both.size(), 3u);
  EXPECT_EQ(both[1][0].flags_on, 0);
  EXPECT_EQ(both[2][0], (UnitPair{2, 100001, 1}));
  // One device that is not device 0 (--device 1): ids below the stride are its.
  EXPECT_EQ(place_flags({{{0, 1}}}, FlagOn::Both, 1)[0][0].flags_on, 1);
}

TEST(AssignLines, EachDeviceDealsItsOwnLines) {
  const PairRounds rounds = place_flags(device_rounds(units_of({0, 1}, 4), false), FlagOn::Both, 0);
  DeviceLinePools pools;
  for (int d : {0, 1}) {
    pools[d].by_class.resize(1);
    for (std::uint64_t l = 0; l < 16; ++l) pools[d].by_class[0].push_back(l * 128 + static_cast<std::uint64_t>(d) * 4096);
  }
  const std::vector<Round> plan = assign_lines(rounds, pools, Placement::SplitLine, 0, 0, 1, 0);
  ASSERT_EQ(plan.size(), rounds.size());
  for (const Round& r : plan) {
    std::set<std::tuple<int, std::uint64_t>> words;
    for (const PlannedPair& p : r.pairs) {
      const auto& pool = pools[p.flags.device].by_class[0];
      EXPECT_TRUE(std::count(pool.begin(), pool.end(), p.flags.first)) << "a line of the flag device";
      EXPECT_TRUE(std::count(pool.begin(), pool.end(), p.flags.second));
      EXPECT_TRUE(p.flags.device == p.a.device || p.flags.device == p.b.device);
      EXPECT_TRUE(words.insert({p.flags.device, p.flags.first}).second);
      EXPECT_TRUE(words.insert({p.flags.device, p.flags.second}).second);
    }
  }
}

// Device 0: classes of 10 and 7 lines; device 1: one class of 5.
DeviceLinePools uneven_pools() {
  DeviceLinePools pools;
  for (std::size_t n : {10u, 7u}) pools[0].by_class.emplace_back(n);
  pools[1].by_class.emplace_back(5);
  for (auto& [d, p] : pools) {
    std::uint64_t line = 0;
    for (auto& c : p.by_class)
      for (std::uint64_t& l : c) l = 128 * line++;
  }
  return pools;
}

TEST(PairsEachDeviceHolds, TheScarcestClassDecidesByWhatAPairTakes) {
  const DeviceLinePools pools = uneven_pools();
  EXPECT_EQ(pairs_each_device_holds(pools, Placement::SameLine), (std::map<int, int>{{0, 7}, {1, 5}}));
  EXPECT_EQ(pairs_each_device_holds(pools, Placement::SplitLine), (std::map<int, int>{{0, 3}, {1, 2}}));
  EXPECT_EQ(pairs_each_device_holds(pools, Placement::CrossHome), (std::map<int, int>{{0, 7}, {1, 5}}));
}

// The cap and the dealing follow one rule: rounds cut to what each device
// holds never run out of lines, where the uncut rounds do.
TEST(PairsEachDeviceHolds, RoundsCutToItAlwaysGetTheirLines) {
  const DeviceLinePools pools = uneven_pools();
  const PairRounds rounds = place_flags(device_rounds(units_of({0, 1}, 12), false), FlagOn::Both, 0);
  for (Placement placement : {Placement::SameLine, Placement::SplitLine}) {
    EXPECT_THROW(assign_lines(rounds, pools, placement, 0, 0, 1, 0), UsageError) << to_string(placement);
    const PairRounds cut = cap_flags_per_device(rounds, pairs_each_device_holds(pools, placement));
    EXPECT_NO_THROW(assign_lines(cut, pools, placement, 0, 0, 1, 0)) << to_string(placement);
  }
}

}  // namespace
}  // namespace cumap
