// Planning a map across devices, in plain C++: rounds that keep each chip's
// own pairs apart from the pairs across chips, whose memory holds the flags
// of each pair, lines dealt from the right device, and how files name units.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "report/matrix_csv.hpp"
#include "report/pairs_csv.hpp"
#include "plan/planner.hpp"
#include "core/units.hpp"

namespace cumap {
namespace {

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

TEST(core_DeviceRounds, EveryPairOnceOwnPairsFirstRoundsDisjoint) {
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

TEST(core_DeviceRounds, BothChipsOwnRoundsRunSideBySideAndAcrossRoundsAreFull) {
  const PairRounds rounds = device_rounds(units_of({0, 1}, 8), false);
  // 7 rounds of 4 + 4 own pairs, then 8 bipartite rounds of 8.
  ASSERT_EQ(rounds.size(), 15u);
  for (std::size_t r = 0; r < 7; ++r) EXPECT_EQ(rounds[r].size(), 8u);
  for (std::size_t r = 7; r < 15; ++r) EXPECT_EQ(rounds[r].size(), 8u);
}

TEST(core_DeviceRounds, UnequalChipsAndFourDevices) {
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

TEST(core_PlaceFlags, OnOneDeviceItsOwnAcrossEitherSideOrBoth) {
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

TEST(core_AssignLines, EachDeviceDealsItsOwnLines) {
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

TEST(core_PairsEachDeviceHolds, TheScarcestClassDecidesByWhatAPairTakes) {
  const DeviceLinePools pools = uneven_pools();
  EXPECT_EQ(pairs_each_device_holds(pools, Placement::SameLine), (std::map<int, int>{{0, 7}, {1, 5}}));
  EXPECT_EQ(pairs_each_device_holds(pools, Placement::SplitLine), (std::map<int, int>{{0, 3}, {1, 2}}));
  EXPECT_EQ(pairs_each_device_holds(pools, Placement::CrossHome), (std::map<int, int>{{0, 7}, {1, 5}}));
}

// The cap and the dealing follow one rule: rounds cut to what each device
// holds never run out of lines, where the uncut rounds do.
TEST(core_PairsEachDeviceHolds, RoundsCutToItAlwaysGetTheirLines) {
  const DeviceLinePools pools = uneven_pools();
  const PairRounds rounds = place_flags(device_rounds(units_of({0, 1}, 12), false), FlagOn::Both, 0);
  for (Placement placement : {Placement::SameLine, Placement::SplitLine}) {
    EXPECT_THROW(assign_lines(rounds, pools, placement, 0, 0, 1, 0), UsageError) << to_string(placement);
    const PairRounds cut = cap_flags_per_device(rounds, pairs_each_device_holds(pools, placement));
    EXPECT_NO_THROW(assign_lines(cut, pools, placement, 0, 0, 1, 0)) << to_string(placement);
  }
}

TEST(core_UnitIds, FilesNameUnitsAcrossGpusByGpuAndSm) {
  EXPECT_FALSE(ids_span_devices({0, 5, 131}));
  EXPECT_TRUE(ids_span_devices({0, 100005}));
  EXPECT_EQ(format_unit_id(5, false), "5");
  EXPECT_EQ(format_unit_id(5, true), "g0.5");
  EXPECT_EQ(format_unit_id(100131, true), "g1.131");
  EXPECT_EQ(parse_unit_id("g1.131"), 100131);
  EXPECT_EQ(parse_unit_id("g0.5"), 5);
  EXPECT_EQ(parse_unit_id(" 17 "), 17);
  for (const char* bad : {"g1", "g.5", "gx.5", "g1.x", "g1.5.", "-3", "g-1.5", "", "g1.100000"})
    EXPECT_FALSE(parse_unit_id(bad).has_value()) << bad;
}

TEST(core_UnitIds, UnitListsAcrossGpus) {
  const std::map<int, int> counts{{0, 132}, {1, 132}};
  EXPECT_EQ(parse_device_unit_list("0-1", counts), (std::vector<int>{0, 1, 100000, 100001}));
  EXPECT_EQ(parse_device_unit_list("g1.0-1,g0.7", counts), (std::vector<int>{7, 100000, 100001}));
  EXPECT_THROW(parse_device_unit_list("g2.0", counts), UsageError);
  EXPECT_THROW(parse_device_unit_list("g1.132", counts), UsageError);
  EXPECT_THROW(parse_device_unit_list("g1", counts), UsageError);
  EXPECT_THROW(parse_device_unit_list("", counts), UsageError);
}

TEST(core_MatrixCsv, AcrossGpusEveryIdIsGpuDotSmAndReadsBack) {
  ValueMatrix m = ValueMatrix::filled({0, 1, 100000}, kNaN);
  m.at(0, 2) = m.at(2, 0) = 900.5;
  const std::string csv = matrix_csv(m);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "unit,g0.0,g0.1,g1.0");
  const ValueMatrix back = parse_matrix_csv(csv);
  EXPECT_EQ(back.units, m.units);
  EXPECT_DOUBLE_EQ(back.at(2, 0), 900.5);
}

TEST(core_PairsCsv, AcrossGpusUnitsAndTheFlagsGpuReadBack) {
  LatencyMap map;
  map.spec.units = {0, 100000};
  PairStats p;
  p.a = 0;
  p.b = 100000;
  p.flag_device = 1;
  p.first_flag = 128;
  p.second_flag = 132;
  p.rtt_ns = {2000, 1900, 2100, 1800, 0, 5};
  p.iters = 50;
  map.pairs = {p};
  const std::string csv = pairs_csv({&map});
  EXPECT_NE(csv.find("\ng0.0,g1.0,global,same-line,0,0,128,132,1,"), std::string::npos) << csv;
  const auto back = parse_pairs_csv(csv);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].stats.a, 0);
  EXPECT_EQ(back[0].stats.b, 100000);
  EXPECT_EQ(back[0].stats.flag_device, 1);
}

}  // namespace
}  // namespace cumap
