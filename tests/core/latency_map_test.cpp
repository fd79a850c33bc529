#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "cumap/matrix.hpp"
#include "cumap/schedule.hpp"

namespace cumap {
namespace {

PairMeasurement measured(int a, int b, int copy, std::vector<double> rtt, bool timed_out = false) {
  PairMeasurement m;
  m.a = a;
  m.b = b;
  m.copy = copy;
  m.rtt_ns = std::move(rtt);
  m.timed_out = timed_out;
  return m;
}

// Units 0, 2, 5; two flag copies; the pair (2,5) timed out on copy 1.
struct core_HandMadeRun : ::testing::Test {
  Schedule schedule = make_schedule({0, 2, 5}, false);
  MeasureSpec spec;
  std::vector<PairMeasurement> raw;
  void SetUp() override {
    spec.iters = 100;
    spec.placement = Placement::SplitLine;
    spec.rotating_count = 2;
    raw.push_back(measured(0, 2, 0, {100, 120, 110}));  // median 110 -> one-way 55
    raw.push_back(measured(0, 2, 1, {130, 130, 150}));  // median 130 -> one-way 65
    raw.push_back(measured(0, 5, 0, {200, 210}));       // median 205 -> 102.5
    raw.push_back(measured(0, 5, 1, {400, 400}));       // median 400 -> 200
    raw.push_back(measured(2, 5, 0, {300, 300}));
    raw.push_back(measured(2, 5, 1, {}, true));
    raw[0].rtt_cycles = {1000, 1200, 1100};
    raw[0].cold_rtt_ns = 900;
  }
};

TEST_F(core_HandMadeRun, SummarizesEachMeasurement) {
  const LatencyMap map = summarize_measurements(raw, schedule, spec);
  EXPECT_EQ(map.placement, Placement::SplitLine);
  EXPECT_EQ(map.units, (std::vector<int>{0, 2, 5}));
  EXPECT_FALSE(map.ordered);
  EXPECT_EQ(map.iters, 100);
  ASSERT_EQ(map.pairs.size(), raw.size());
  const PairStats& first = map.pairs[0];
  EXPECT_EQ(first.a, 0);
  EXPECT_EQ(first.b, 2);
  EXPECT_EQ(first.copy, 0);
  EXPECT_DOUBLE_EQ(first.rtt_ns.median, 110);
  EXPECT_DOUBLE_EQ(first.rtt_ns.min, 100);
  EXPECT_EQ(first.rtt_ns.count, 3);
  EXPECT_DOUBLE_EQ(first.cycles_median, 1100);
  EXPECT_DOUBLE_EQ(first.cold_ns, 900);
  EXPECT_EQ(first.iters, 100);
  EXPECT_DOUBLE_EQ(first.oneway_median_ns(), 55);
  EXPECT_TRUE(std::isnan(map.pairs[1].cycles_median));  // no cycle clock there
  EXPECT_TRUE(map.pairs[5].timed_out);
  EXPECT_FALSE(map.pairs[4].timed_out);
}

TEST_F(core_HandMadeRun, OnewayIsMedianOverCopiesMirrored) {
  const LatencyMap map = summarize_measurements(raw, schedule, spec);
  const ValueMatrix m = map.oneway_ns();
  ASSERT_EQ(m.size(), 3u);
  EXPECT_DOUBLE_EQ(m.at(0, 1), 60.0);  // median of 55 and 65
  EXPECT_DOUBLE_EQ(m.at(1, 0), 60.0);
  EXPECT_DOUBLE_EQ(m.at(0, 2), 151.25);  // median of 102.5 and 200
  EXPECT_DOUBLE_EQ(m.at(2, 0), 151.25);
  EXPECT_TRUE(std::isnan(m.at(1, 2)));  // timed out on one copy
  EXPECT_TRUE(std::isnan(m.at(2, 1)));
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(m.at(i, i)));
}

TEST_F(core_HandMadeRun, CopySpread) {
  const ValueMatrix s = summarize_measurements(raw, schedule, spec).copy_spread_ns();
  EXPECT_DOUBLE_EQ(s.at(0, 1), 10.0);
  EXPECT_DOUBLE_EQ(s.at(2, 0), 97.5);
  EXPECT_TRUE(std::isnan(s.at(1, 2)));
  EXPECT_TRUE(std::isnan(s.at(0, 0)));
}

TEST_F(core_HandMadeRun, ListsTimedOutPairs) {
  const auto t = summarize_measurements(raw, schedule, spec).timed_out();
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].a, 2);
  EXPECT_EQ(t[0].b, 5);
  EXPECT_EQ(t[0].copy, 1);
}

TEST(core_LatencyMap, OrderedFillsOnlyMeasuredDirection) {
  const Schedule schedule = make_schedule({0, 1, 2}, true);
  MeasureSpec spec;
  std::vector<PairMeasurement> raw;
  raw.push_back(measured(0, 1, 0, {100}));
  raw.push_back(measured(1, 0, 0, {300}));
  raw.push_back(measured(2, 1, 0, {50}));
  const ValueMatrix m = summarize_measurements(raw, schedule, spec).oneway_ns();
  EXPECT_DOUBLE_EQ(m.at(0, 1), 50);
  EXPECT_DOUBLE_EQ(m.at(1, 0), 150);
  EXPECT_DOUBLE_EQ(m.at(2, 1), 25);
  EXPECT_TRUE(std::isnan(m.at(1, 2)));  // never measured
  EXPECT_TRUE(std::isnan(m.at(0, 2)));
}

TEST(core_LatencyMap, ManyPairsKeepTheirOrder) {
  // Exercises the parallel loop: every result must land in its own slot.
  std::vector<int> units;
  for (int i = 0; i < 40; ++i) units.push_back(i);
  const Schedule schedule = make_schedule(units, false);
  std::vector<PairMeasurement> raw;
  for (const Pair& p : schedule.pairs) raw.push_back(measured(p.a, p.b, 0, {double(p.a * 100 + p.b), 1e9, 0}));
  const LatencyMap map = summarize_measurements(raw, schedule, MeasureSpec{});
  ASSERT_EQ(map.pairs.size(), raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    EXPECT_EQ(map.pairs[i].a, raw[i].a);
    EXPECT_DOUBLE_EQ(map.pairs[i].rtt_ns.median, raw[i].a * 100 + raw[i].b);
  }
}

}  // namespace
}  // namespace cumap
