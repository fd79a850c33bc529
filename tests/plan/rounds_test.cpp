#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "plan/planner.hpp"
#include "first_units.hpp"

namespace cumap {
namespace {

using test::first_units;

// Every ordered (a, b) with its count over all rounds.
std::map<std::pair<int, int>, int> directed_counts(const PairRounds& rounds) {
  std::map<std::pair<int, int>, int> count;
  for (const auto& r : rounds)
    for (const UnitPair& p : r) ++count[{p.a, p.b}];
  return count;
}

std::map<std::pair<int, int>, int> unordered_counts(const PairRounds& rounds) {
  std::map<std::pair<int, int>, int> count;
  for (const auto& r : rounds)
    for (const UnitPair& p : r) ++count[{std::min(p.a, p.b), std::max(p.a, p.b)}];
  return count;
}

void expect_every_unordered_pair_once(const PairRounds& rounds, const std::vector<int>& units) {
  const auto count = unordered_counts(rounds);
  EXPECT_EQ(count.size(), units.size() * (units.size() - 1) / 2);
  for (std::size_t i = 0; i < units.size(); ++i)
    for (std::size_t j = i + 1; j < units.size(); ++j) {
      const auto it = count.find({std::min(units[i], units[j]), std::max(units[i], units[j])});
      ASSERT_NE(it, count.end()) << units[i] << "-" << units[j];
      EXPECT_EQ(it->second, 1) << units[i] << "-" << units[j];
    }
}

void expect_disjoint_rounds(const PairRounds& rounds) {
  for (const auto& r : rounds) {
    std::set<int> seen;
    for (const UnitPair& p : r) {
      EXPECT_NE(p.a, p.b);
      EXPECT_TRUE(seen.insert(p.a).second) << "unit " << p.a << " twice in a round";
      EXPECT_TRUE(seen.insert(p.b).second) << "unit " << p.b << " twice in a round";
    }
  }
}

TEST(Rounds, SerialIsRowMajorOnePairPerRound) {
  const PairRounds r = serial_rounds({3, 5, 9}, false);
  ASSERT_EQ(r.size(), 3u);
  for (const auto& round : r) EXPECT_EQ(round.size(), 1u);
  EXPECT_EQ(r[0][0], (UnitPair{3, 5}));
  EXPECT_EQ(r[1][0], (UnitPair{3, 9}));
  EXPECT_EQ(r[2][0], (UnitPair{5, 9}));
}

TEST(Rounds, SerialOrderedHasBothDirectionsInTurn) {
  const PairRounds r = serial_rounds({0, 1, 2}, true);
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0][0], (UnitPair{0, 1}));
  EXPECT_EQ(r[1][0], (UnitPair{1, 0}));
  const auto count = directed_counts(r);
  EXPECT_EQ(count.size(), 6u);
  for (const auto& [pair, n] : count) EXPECT_EQ(n, 1);
}

TEST(Rounds, RoundRobinEvenCount) {
  const std::vector<int> units = first_units(8);
  const PairRounds r = round_robin_rounds(units, false);
  ASSERT_EQ(r.size(), 7u);
  for (const auto& round : r) EXPECT_EQ(round.size(), 4u);
  expect_disjoint_rounds(r);
  expect_every_unordered_pair_once(r, units);
}

TEST(Rounds, RoundRobinOddCountHasAByeEachRound) {
  const std::vector<int> units = first_units(7);
  const PairRounds r = round_robin_rounds(units, false);
  ASSERT_EQ(r.size(), 7u);
  std::set<int> sat_out;
  for (const auto& round : r) {
    ASSERT_EQ(round.size(), 3u);
    std::set<int> playing;
    for (const UnitPair& p : round) playing.insert({p.a, p.b});
    for (int u : units)
      if (!playing.count(u)) sat_out.insert(u);
  }
  EXPECT_EQ(sat_out.size(), 7u);  // each unit sits out exactly one round
  expect_disjoint_rounds(r);
  expect_every_unordered_pair_once(r, units);
}

TEST(Rounds, RoundRobinOnNonContiguousSubset) {
  const std::vector<int> units{0, 3, 4, 17, 40, 41, 100, 131, 7};
  const PairRounds r = round_robin_rounds(units, false);
  expect_disjoint_rounds(r);
  expect_every_unordered_pair_once(r, units);
  for (const auto& round : r)
    for (const UnitPair& p : round) {
      EXPECT_NE(std::find(units.begin(), units.end(), p.a), units.end());
      EXPECT_NE(std::find(units.begin(), units.end(), p.b), units.end());
    }
}

TEST(Rounds, RoundRobinLargeAndTiny) {
  const std::vector<int> units = first_units(132);
  const PairRounds r = round_robin_rounds(units, false);
  EXPECT_EQ(r.size(), 131u);
  expect_disjoint_rounds(r);
  expect_every_unordered_pair_once(r, units);
  EXPECT_TRUE(round_robin_rounds({5}, false).empty());
  EXPECT_TRUE(round_robin_rounds({}, true).empty());
  const PairRounds two = round_robin_rounds({4, 9}, false);
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0][0], (UnitPair{4, 9}));
}

TEST(Rounds, RoundRobinOrderedCoversBothDirectionsOnce) {
  const std::vector<int> units = first_units(5);
  const PairRounds r = round_robin_rounds(units, true);
  EXPECT_EQ(r.size(), 10u);
  expect_disjoint_rounds(r);
  const auto count = directed_counts(r);
  EXPECT_EQ(count.size(), 20u);
  for (const auto& [pair, n] : count) EXPECT_EQ(n, 1) << pair.first << "->" << pair.second;
  // The mirror round follows its round.
  ASSERT_EQ(r[0].size(), r[1].size());
  for (std::size_t i = 0; i < r[0].size(); ++i) EXPECT_EQ(r[1][i], (UnitPair{r[0][i].b, r[0][i].a}));
}

TEST(LimitRounds, RespectsMaxAndLosesNoPair) {
  const std::vector<int> units = first_units(12);
  const PairRounds full = round_robin_rounds(units, false);
  const PairRounds cut = limit_rounds(full, 4);
  for (const auto& round : cut) {
    EXPECT_LE(round.size(), 4u);
    EXPECT_FALSE(round.empty());
  }
  EXPECT_EQ(cut.size(), full.size() * 2);  // 6 pairs per round -> 4 + 2
  expect_disjoint_rounds(cut);
  expect_every_unordered_pair_once(cut, units);
  // Without key conflicts, the pieces are the rounds' runs in order.
  PairRounds flat_full(1), flat_cut(1);
  for (const auto& r : full) flat_full[0].insert(flat_full[0].end(), r.begin(), r.end());
  for (const auto& r : cut) flat_cut[0].insert(flat_cut[0].end(), r.begin(), r.end());
  EXPECT_EQ(flat_full, flat_cut);
}

TEST(LimitRounds, KeepsExclusiveKeysApart) {
  // SMT siblings: units u and u+8 share physical core u.
  const std::vector<int> units = first_units(16);
  std::map<int, int> core;
  for (int u = 0; u < 16; ++u) core[u] = u % 8;
  core.erase(15);  // a unit without a key conflicts with nobody
  const PairRounds full = round_robin_rounds(units, false);
  const PairRounds cut = limit_rounds(full, 8, core);
  std::size_t pairs = 0;
  for (const auto& round : cut) {
    EXPECT_LE(round.size(), 8u);
    std::map<int, int> holders;  // key -> pairs holding it
    for (const UnitPair& p : round) {
      std::set<int> keys;
      for (int u : {p.a, p.b})
        if (core.count(u)) keys.insert(core[u]);
      for (int k : keys) EXPECT_EQ(++holders[k], 1) << "core " << k << " in two pairs of a round";
    }
    pairs += round.size();
  }
  EXPECT_EQ(pairs, 16u * 15u / 2u);
  expect_every_unordered_pair_once(cut, units);
}

TEST(LimitRounds, RejectsZeroPairs) { EXPECT_THROW(limit_rounds({}, 0), std::invalid_argument); }

}  // namespace
}  // namespace cumap
