#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "plan/planner.hpp"
#include "cumap/protocol.hpp"
#include "first_units.hpp"

namespace cumap {
namespace {

using test::first_units;

// Two classes whose lines alternate every 4 lines of 128 bytes, as a 4 KiB
// home stride would look with 1 KiB lines: the planner must not care.
LinePools two_class_pools(std::size_t per_class) {
  LinePools pools;
  pools.by_class.resize(2);
  for (std::uint64_t i = 0; i < 2 * per_class; ++i) pools.by_class[(i / 4) % 2].push_back(i * 128);
  return pools;
}

TEST(AssignLines, SameLineDistinctLinesPerRound) {
  const PairRounds rounds = round_robin_rounds(first_units(10), false);
  const LinePools pools = two_class_pools(16);
  // Units of device 3, their flags there too.
  const std::vector<Round> plan =
      assign_lines(place_flags(rounds, FlagOn::Both, 3), {{3, pools}}, Placement::SameLine, 1, 0, 1, 42, 3);
  ASSERT_EQ(plan.size(), rounds.size());
  const std::set<std::uint64_t> class1(pools.by_class[1].begin(), pools.by_class[1].end());
  for (std::size_t r = 0; r < plan.size(); ++r) {
    ASSERT_EQ(plan[r].pairs.size(), rounds[r].size());
    std::set<std::uint64_t> lines;
    for (std::size_t s = 0; s < plan[r].pairs.size(); ++s) {
      const PlannedPair& p = plan[r].pairs[s];
      EXPECT_EQ(p.a, (UnitRef{3, rounds[r][s].a}));
      EXPECT_EQ(p.b, (UnitRef{3, rounds[r][s].b}));
      EXPECT_EQ(p.tag, 42);
      EXPECT_EQ(p.flags.device, 3);
      EXPECT_TRUE(class1.count(p.flags.first)) << p.flags.first;
      EXPECT_EQ(p.flags.second, p.flags.first + protocol::kSameLineGapBytes);
      EXPECT_TRUE(lines.insert(p.flags.first).second) << "line shared within a round";
    }
  }
}

TEST(AssignLines, PassesGiveEachPairDistinctLines) {
  const PairRounds rounds = round_robin_rounds(first_units(8), false);
  const LinePools pools = two_class_pools(20);
  const int passes = 5;
  std::map<std::pair<int, int>, std::set<std::uint64_t>> seen;
  std::map<std::uint64_t, int> uses;
  for (int p = 0; p < passes; ++p)
    for (const Round& r : assign_lines(rounds, {{0, pools}}, Placement::SameLine, 0, p, passes, p))
      for (const PlannedPair& pp : r.pairs) {
        seen[{pp.a.unit, pp.b.unit}].insert(pp.flags.first);
        ++uses[pp.flags.first];
      }
  ASSERT_EQ(seen.size(), 28u);
  for (const auto& [pair, lines] : seen) EXPECT_EQ(lines.size(), 5u) << pair.first << "-" << pair.second;
  // 28 pairs x 5 passes = 140 uses over 20 lines: 7 each, give or take one.
  EXPECT_EQ(uses.size(), 20u);
  for (const auto& [line, n] : uses) {
    EXPECT_GE(n, 6) << line;
    EXPECT_LE(n, 8) << line;
  }
}

TEST(AssignLines, MorePassesThanLinesReuseEveryLine) {
  const PairRounds rounds = {{{0, 1}}};
  LinePools pools;
  pools.by_class = {{0, 128, 256}};
  std::set<std::uint64_t> lines;
  for (int p = 0; p < 6; ++p) lines.insert(assign_lines(rounds, {{0, pools}}, Placement::SameLine, 0, p, 6, 0)[0].pairs[0].flags.first);
  EXPECT_EQ(lines.size(), 3u);
}

TEST(AssignLines, SplitLineSecondFlagOnAnotherUnusedLineOfTheClass) {
  const PairRounds rounds = round_robin_rounds(first_units(8), false);  // 4 pairs a round
  const LinePools pools = two_class_pools(8);
  const std::set<std::uint64_t> class0(pools.by_class[0].begin(), pools.by_class[0].end());
  for (int pass = 0; pass < 2; ++pass)
    for (const Round& r : assign_lines(rounds, {{0, pools}}, Placement::SplitLine, 0, pass, 2, 0)) {
      std::set<std::uint64_t> lines;
      for (const PlannedPair& p : r.pairs) {
        EXPECT_TRUE(class0.count(p.flags.first));
        EXPECT_TRUE(class0.count(p.flags.second));
        EXPECT_EQ(p.flags.second % protocol::kLineBytes, 0u);
        EXPECT_TRUE(lines.insert(p.flags.first).second);
        EXPECT_TRUE(lines.insert(p.flags.second).second) << "second line used twice in a round";
      }
    }
}

TEST(AssignLines, CrossHomeSecondFlagInTheNextClass) {
  const PairRounds rounds = round_robin_rounds(first_units(6), false);
  const LinePools pools = two_class_pools(4);
  const std::set<std::uint64_t> class0(pools.by_class[0].begin(), pools.by_class[0].end());
  const std::set<std::uint64_t> class1(pools.by_class[1].begin(), pools.by_class[1].end());
  for (const Round& r : assign_lines(rounds, {{0, pools}}, Placement::CrossHome, 1, 0, 1, 0)) {
    std::set<std::uint64_t> seconds;
    for (const PlannedPair& p : r.pairs) {
      EXPECT_TRUE(class1.count(p.flags.first));
      EXPECT_TRUE(class0.count(p.flags.second));  // (1 + 1) % 2
      EXPECT_TRUE(seconds.insert(p.flags.second).second);
    }
  }
}

TEST(AssignLines, CrossHomeNeedsTwoClasses) {
  LinePools one;
  one.by_class = {{0, 128, 256, 384}};
  try {
    assign_lines({{{0, 1}}}, {{0, one}}, Placement::CrossHome, 0, 0, 1, 0);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("needs at least two home classes; this device has one"), std::string::npos);
  }
}

TEST(AssignLines, TooSmallPoolThrows) {
  const PairRounds rounds = round_robin_rounds(first_units(8), false);  // 4 pairs a round
  LinePools pools;
  pools.by_class = {{0, 128, 256, 384, 512, 640, 768}};  // 7 lines
  EXPECT_NO_THROW(assign_lines(rounds, {{0, pools}}, Placement::SameLine, 0, 0, 1, 0));
  EXPECT_THROW(assign_lines(rounds, {{0, pools}}, Placement::SplitLine, 0, 0, 1, 0), UsageError);  // needs 8
  pools.by_class[0].resize(3);
  EXPECT_THROW(assign_lines(rounds, {{0, pools}}, Placement::SameLine, 0, 0, 1, 0), UsageError);
  // A class the device does not have: its pairs are left out of that class's plan.
  for (const Round& r : assign_lines(rounds, {{0, pools}}, Placement::SameLine, 1, 0, 1, 0)) EXPECT_TRUE(r.pairs.empty());
}

TEST(CheckSample, SpreadOverRoundsAndUnitsOnTheSameFlags) {
  const PairRounds rounds = round_robin_rounds(first_units(32), false);  // 31 rounds of 16
  const LinePools pools = two_class_pools(64);
  const std::vector<Round> plan = assign_lines(rounds, {{0, pools}}, Placement::SplitLine, 0, 0, 1, 7);
  const std::vector<Round> sample = serial_check_sample(plan, 40);
  ASSERT_EQ(sample.size(), 40u);

  std::set<std::pair<int, int>> picked;
  std::set<int> units;
  std::set<std::size_t> rounds_hit;
  for (const Round& r : sample) {
    ASSERT_EQ(r.pairs.size(), 1u);
    const PlannedPair& p = r.pairs[0];
    EXPECT_TRUE(picked.insert({p.a.unit, p.b.unit}).second) << "pair sampled twice";
    units.insert({p.a.unit, p.b.unit});
    // The very pair of the plan, flags and tag included.
    bool found = false;
    for (std::size_t i = 0; i < plan.size(); ++i)
      for (const PlannedPair& q : plan[i].pairs)
        if (q.a == p.a && q.b == p.b) {
          found = true;
          rounds_hit.insert(i);
          EXPECT_EQ(q.flags, p.flags);
          EXPECT_EQ(q.tag, p.tag);
        }
    EXPECT_TRUE(found);
  }
  EXPECT_GE(rounds_hit.size(), 25u);  // 40 over 31 rounds
  EXPECT_GE(units.size(), 28u);       // most of the 32 units
}

TEST(CheckSample, SmallPlanIsTakenWhole) {
  const PairRounds rounds = round_robin_rounds(first_units(4), false);
  LinePools pools;
  pools.by_class = {{0, 128}};
  const std::vector<Round> plan = assign_lines(rounds, {{0, pools}}, Placement::SameLine, 0, 0, 1, 0);
  const std::vector<Round> sample = serial_check_sample(plan, 64);
  EXPECT_EQ(sample.size(), 6u);
  for (const Round& r : sample) EXPECT_EQ(r.pairs.size(), 1u);
  EXPECT_TRUE(serial_check_sample({}, 10).empty());
}

}  // namespace
}  // namespace cumap
