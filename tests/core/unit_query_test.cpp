// What a run says about named units (core/unit_query.hpp): a pair in each
// class with where it sits and the cheaper class, a set's shared flag as the
// mean over its pairs, and a sweep's cases at the set's k matched by sides.
#include <gtest/gtest.h>

#include <cmath>

#include "core/unit_query.hpp"

namespace cumap {
namespace {

// Units 0, 1 on side 0 and 2, 3 on side 1; a pair costs 100 ns plus 50 for
// each unit far from the class (class c is near side c).
ValueMatrix class_map(int home_class) {
  ValueMatrix m = ValueMatrix::filled({0, 1, 2, 3}, kNaN);
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t c = 0; c < 4; ++c)
      if (r != c) {
        const auto far = [&](std::size_t unit) { return unit / 2 != static_cast<std::size_t>(home_class); };
        m.at(r, c) = 100.0 + 50.0 * (far(r) + far(c));
      }
  return m;
}

UnitPlaces places() {
  UnitPlaces p;
  p.side = {{0, 0}, {1, 0}, {2, 1}, {3, 1}};
  p.group = {{0, "GPC0"}, {1, "GPC0"}, {2, "GPC1"}, {3, "GPC1"}};
  p.class_count = 2;
  p.unit_word = "SM";
  return p;
}

std::vector<PlacementMaps> maps() {
  PlacementMaps p;
  p.placement = "same-line";
  p.classes = {{0, class_map(0)}, {1, class_map(1)}};
  ValueMatrix headline = class_map(0);
  for (std::size_t i = 0; i < headline.values.size(); ++i)
    headline.values[i] = (class_map(0).values[i] + class_map(1).values[i]) / 2;
  p.headline_ns = headline;
  return {p};
}

TEST(QueryPair, EachClassWithWhereItSitsAndTheCheaperOne) {
  const PairAnswer a = query_pair(0, 1, maps(), places());
  ASSERT_EQ(a.rows.size(), 3u);
  EXPECT_EQ(a.rows[0].where, "near side (side 0)");
  EXPECT_DOUBLE_EQ(a.rows[0].median_ns, 100.0);
  // Both units are on side 0, far from class 1: the side named is where the pair sits, as in the structure table.
  EXPECT_EQ(a.rows[1].where, "far side (side 0)");
  EXPECT_DOUBLE_EQ(a.rows[1].median_ns, 200.0);
  EXPECT_TRUE(a.rows[2].headline);
  ASSERT_EQ(a.cheapest.size(), 1u);
  EXPECT_EQ(a.cheapest[0].home_class, 0);
  EXPECT_DOUBLE_EQ(a.cheapest[0].next_ns, 200.0);
  EXPECT_EQ(query_pair(0, 2, maps(), places()).rows[0].where, "across sides");
}

TEST(QueryPair, LinesOfPairsCsvGiveEachClassItsSpreadAndPercentiles) {
  std::vector<PlacementMaps> m = maps();
  PairStats line;
  line.a = 0;
  line.b = 1;
  line.home_class = 0;
  line.rtt_ns = {200.0, 180.0, 240.0, 170.0, 250.0, 3};
  m[0].pair_lines = {line, line};
  m[0].pair_lines[1].rtt_ns.median = 210.0;
  const PairAnswer a = query_pair(0, 1, m, places());
  EXPECT_EQ(a.rows[0].lines, 2u);
  EXPECT_DOUBLE_EQ(a.rows[0].p05_ns, 90.0);
  EXPECT_DOUBLE_EQ(a.rows[0].line_spread_ns, 5.0);
  EXPECT_EQ(a.rows[1].lines, 0u) << "no line of class 1";
}

TEST(QuerySet, ASharedFlagCostsTheMeanOverItsPairs) {
  const SetAnswer s = query_set({0, 1, 2}, maps(), places());
  EXPECT_EQ(s.units_per_side, (std::map<int, std::size_t>{{0, 2}, {1, 1}}));
  ASSERT_EQ(s.flag.size(), 3u);
  // Class 0: 0-1 100, 0-2 150, 1-2 150.
  EXPECT_NEAR(s.flag[0].mean_ns, 400.0 / 3.0, 1e-9);
  EXPECT_EQ(s.flag[0].near_units, 2u);
  EXPECT_DOUBLE_EQ(s.flag[0].max_ns, 150.0);
  ASSERT_EQ(s.cheapest.size(), 1u);
  EXPECT_EQ(s.cheapest[0].home_class, 0);

  SetAnswer with_cases = s;
  SyncCaseResult mine, like, other;
  mine.label = {"spread", 3};
  mine.participants = {2, 0, 1};
  like.label = {"spread", 3};
  like.participants = {0, 1, 3};
  other.label = {"one-side", 2};
  other.participants = {0, 1};
  add_cases(with_cases, "barrier", {mine, like, other}, places(), true);
  ASSERT_EQ(with_cases.cases.size(), 2u);
  EXPECT_TRUE(with_cases.cases[0].these_units);
  EXPECT_FALSE(with_cases.cases[1].these_units);
  EXPECT_TRUE(with_cases.cases[1].like_these);
  EXPECT_EQ(with_cases.case_ks, (std::vector<int>{2, 3}));
  // Another chip's sweep never measured these units, whatever its ids.
  SetAnswer elsewhere = s;
  add_cases(elsewhere, "barrier", {mine}, places(), false);
  EXPECT_FALSE(elsewhere.cases[0].these_units);
}

}  // namespace
}  // namespace cumap
