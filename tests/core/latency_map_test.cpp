#include <cmath>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "core/matrix.hpp"
#include "cumap/backend.hpp"
#include "core/stats.hpp"
#include "merge_maps.hpp"
#include "pair_stats.hpp"

namespace cumap {
namespace {

using test::merge_maps;

// The tag carries the pass (which of the pair's lines); every pair is in home class 3.
PairMeasurement measured(int a, int b, int pass, std::vector<double> rtt, bool timed_out = false) {
  PairMeasurement m;
  m.a = UnitRef{0, a};
  m.b = UnitRef{0, b};
  m.tag = pass;
  m.flags = FlagSite{static_cast<std::uint64_t>(pass) * 128, static_cast<std::uint64_t>(pass) * 128 + 4};
  m.rtt_ns = std::move(rtt);
  m.timed_out = timed_out;
  return m;
}

int home_class_three(int) { return 3; }
int pass_is_tag(int tag) { return tag; }

LatencyMap summarized(const std::vector<PairMeasurement>& raw, MapSpec spec) {
  return summarize_measurements(std::span(&raw, 1), std::move(spec), home_class_three, pass_is_tag);
}

// Units 0, 2, 5; two lines (passes); the pair (2,5) timed out on pass 1.
struct HandMadeRun : ::testing::Test {
  MapSpec spec;
  std::vector<PairMeasurement> raw;
  void SetUp() override {
    spec.units = {0, 2, 5};
    spec.iters = 100;
    spec.placement = Placement::SplitLine;
    spec.home_class = 3;
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

TEST_F(HandMadeRun, SummarizesEachMeasurement) {
  const LatencyMap map = summarized(raw, spec);
  EXPECT_EQ(map.placement(), Placement::SplitLine);
  EXPECT_EQ(map.units(), (std::vector<int>{0, 2, 5}));
  EXPECT_FALSE(map.spec.ordered);
  EXPECT_EQ(map.spec.iters, 100);
  EXPECT_EQ(map.spec.home_class, 3);
  ASSERT_EQ(map.pairs.size(), raw.size());
  const PairStats& first = map.pairs[0];
  EXPECT_EQ(first.a, 0);
  EXPECT_EQ(first.b, 2);
  EXPECT_EQ(first.pass, 0);
  EXPECT_EQ(first.home_class, 3);
  EXPECT_EQ(first.first_flag, 0u);
  EXPECT_EQ(first.second_flag, 4u);
  EXPECT_EQ(map.pairs[1].pass, 1);
  EXPECT_EQ(map.pairs[1].first_flag, 128u);
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

// A class comes from the backend in parts: summarized as one run, in order.
TEST_F(HandMadeRun, PartsAreSummarizedAsOneRunInOrder) {
  const std::vector<std::vector<PairMeasurement>> parts{
      {raw.begin(), raw.begin() + 2}, {}, {raw.begin() + 2, raw.end()}};
  const LatencyMap whole = summarized(raw, spec);
  const LatencyMap joined = summarize_measurements(parts, spec, home_class_three, pass_is_tag);
  ASSERT_EQ(joined.pairs.size(), whole.pairs.size());
  for (std::size_t i = 0; i < whole.pairs.size(); ++i) {
    EXPECT_EQ(joined.pairs[i].a, whole.pairs[i].a) << i;
    EXPECT_EQ(joined.pairs[i].b, whole.pairs[i].b) << i;
    EXPECT_EQ(joined.pairs[i].pass, whole.pairs[i].pass) << i;
    EXPECT_EQ(joined.pairs[i].timed_out, whole.pairs[i].timed_out) << i;
    if (!whole.pairs[i].timed_out) EXPECT_DOUBLE_EQ(joined.pairs[i].rtt_ns.median, whole.pairs[i].rtt_ns.median) << i;
  }
}

TEST_F(HandMadeRun, OnewayIsMedianOverLinesMirrored) {
  const LatencyMap map = summarized(raw, spec);
  const ValueMatrix m = map.oneway_ns();
  ASSERT_EQ(m.size(), 3u);
  EXPECT_DOUBLE_EQ(m.at(0, 1), 60.0);  // median of 55 and 65
  EXPECT_DOUBLE_EQ(m.at(1, 0), 60.0);
  EXPECT_DOUBLE_EQ(m.at(0, 2), 151.25);  // median of 102.5 and 200
  EXPECT_DOUBLE_EQ(m.at(2, 0), 151.25);
  EXPECT_TRUE(std::isnan(m.at(1, 2)));  // timed out on one line
  EXPECT_TRUE(std::isnan(m.at(2, 1)));
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(m.at(i, i)));
}

TEST_F(HandMadeRun, LineSpread) {
  const ValueMatrix s = summarized(raw, spec).line_spread_ns();
  EXPECT_DOUBLE_EQ(s.at(0, 1), 10.0);
  EXPECT_DOUBLE_EQ(s.at(2, 0), 97.5);
  EXPECT_TRUE(std::isnan(s.at(1, 2)));
  EXPECT_TRUE(std::isnan(s.at(0, 0)));
}

TEST_F(HandMadeRun, ListsTimedOutPairs) {
  const auto t = summarized(raw, spec).timed_out();
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].a, 2);
  EXPECT_EQ(t[0].b, 5);
  EXPECT_EQ(t[0].pass, 1);
}

TEST(LatencyMap, OrderedFillsOnlyMeasuredDirection) {
  MapSpec spec;
  spec.units = {0, 1, 2};
  spec.ordered = true;
  std::vector<PairMeasurement> raw;
  raw.push_back(measured(0, 1, 0, {100}));
  raw.push_back(measured(1, 0, 0, {300}));
  raw.push_back(measured(2, 1, 0, {50}));
  const ValueMatrix m = summarized(raw, spec).oneway_ns();
  EXPECT_DOUBLE_EQ(m.at(0, 1), 50);
  EXPECT_DOUBLE_EQ(m.at(1, 0), 150);
  EXPECT_DOUBLE_EQ(m.at(2, 1), 25);
  EXPECT_TRUE(std::isnan(m.at(1, 2)));  // never measured
  EXPECT_TRUE(std::isnan(m.at(0, 2)));
}

TEST(LatencyMap, ManyPairsKeepTheirOrder) {
  // Exercises the parallel loop: every result must land in its own slot.
  std::vector<int> units;
  for (int i = 0; i < 40; ++i) units.push_back(i);
  std::vector<PairMeasurement> raw;
  for (int a : units)  // every pair a < b, in row-major order
    for (int b = a + 1; b < static_cast<int>(units.size()); ++b)
      raw.push_back(measured(a, b, 0, {double(a * 100 + b), 1e9, 0}));
  MapSpec spec;
  spec.units = units;
  const LatencyMap map = summarized(raw, spec);
  ASSERT_EQ(map.pairs.size(), raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    EXPECT_EQ(map.pairs[i].a, raw[i].a.unit);
    EXPECT_DOUBLE_EQ(map.pairs[i].rtt_ns.median, raw[i].a.unit * 100 + raw[i].b.unit);
  }
}

TEST_F(HandMadeRun, MergeKeepsEveryPairUnderTheNewSpec) {
  const LatencyMap one = summarized({raw[0], raw[1]}, spec);
  const LatencyMap two = summarized({raw[2]}, spec);
  MapSpec headline = spec;
  headline.home_class = MapSpec::kAllClasses;
  const LatencyMap merged = merge_maps({one, two}, headline);
  EXPECT_EQ(merged.spec.home_class, MapSpec::kAllClasses);
  ASSERT_EQ(merged.pairs.size(), 3u);
  EXPECT_EQ(merged.pairs[2].b, 5);
  const ValueMatrix m = merged.oneway_ns();
  EXPECT_DOUBLE_EQ(m.at(0, 1), 60.0);  // both lines of (0,2), from the first map
  EXPECT_DOUBLE_EQ(m.at(0, 2), 102.5);
}

// A placement's matrices in one pass: per class, the balanced headline, the
// even/odd line sets and the spread, with one timed-out line hiding its cell
// in its class and in everything over all classes, but not in the other class.
TEST(MapMatrices, PerClassHeadlineLineSetsAndTimeouts) {
  MapSpec spec;
  spec.units = {0, 1, 2};
  const auto pair = [](int a, int b, int cls, int pass, double rtt, bool timed_out = false) {
    PairStats p;
    p.a = a;
    p.b = b;
    p.home_class = cls;
    p.pass = pass;
    p.rtt_ns = summarize(std::vector<double>{rtt});
    p.timed_out = timed_out;
    return p;
  };
  std::vector<LatencyMap> maps(2, LatencyMap{spec, {}});
  // (0,1): class 0 lines at 100 and 120 one-way, class 1 lines at 300 and 340.
  maps[0].pairs = {pair(0, 1, 0, 0, 200), pair(0, 1, 0, 1, 240), pair(0, 2, 0, 0, 400)};
  maps[1].pairs = {pair(0, 1, 1, 0, 600), pair(0, 1, 1, 1, 680), pair(0, 2, 1, 0, kNaN, true)};
  const MapMatrices m = map_matrices(maps, spec.units, false);
  ASSERT_EQ(m.per_map.size(), 2u);
  EXPECT_DOUBLE_EQ(m.per_map[0].at(0, 1), 110.0);
  EXPECT_DOUBLE_EQ(m.per_map[1].at(1, 0), 320.0) << "mirrored";
  EXPECT_DOUBLE_EQ(m.combined.at(0, 1), (110.0 + 320.0) / 2) << "each class weighs the same";
  EXPECT_DOUBLE_EQ(m.even_passes.at(0, 1), (100.0 + 300.0) / 2);
  EXPECT_DOUBLE_EQ(m.odd_passes.at(0, 1), (120.0 + 340.0) / 2);
  EXPECT_DOUBLE_EQ(m.line_spread.at(0, 1), 240.0);
  EXPECT_DOUBLE_EQ(m.per_map[0].at(0, 2), 200.0) << "class 0 finished there";
  EXPECT_TRUE(std::isnan(m.per_map[1].at(0, 2)));
  EXPECT_TRUE(std::isnan(m.combined.at(0, 2)));
  EXPECT_TRUE(std::isnan(m.line_spread.at(0, 2)));
  EXPECT_TRUE(std::isnan(m.combined.at(1, 2))) << "never measured";
  EXPECT_TRUE(std::isnan(m.combined.at(1, 1)));
  // The same as going over the merged pairs.
  MapSpec all = spec;
  all.home_class = MapSpec::kAllClasses;
  const LatencyMap merged = merge_maps(maps, all);
  EXPECT_DOUBLE_EQ(merged.oneway_ns().at(0, 1), m.combined.at(0, 1));
  EXPECT_DOUBLE_EQ(merged.line_spread_ns().at(0, 1), m.line_spread.at(0, 1));
}

using test::pair_at;

TEST(LatencyMap, AHeadlineWeighsEveryHomeClassEquallyWhateverItsLineCount) {
  LatencyMap map;
  map.spec.units = {0, 1};
  // Class 0: three lines at 100 ns; class 1: one line at 200 ns. One median
  // over all four would say 100; each class weighing the same says 150.
  for (auto [cls, oneway] : {std::pair<int, double>{0, 100}, {0, 100}, {0, 100}, {1, 200}}) {
    PairStats p = pair_at(0, 1, oneway);
    p.home_class = cls;
    map.pairs.push_back(p);
  }
  EXPECT_DOUBLE_EQ(map.oneway_ns().at(0, 1), 150.0);
}

// A pair across devices measured with the flags on each side: each side is a
// line set of its own, and the cell weighs both sides the same, whatever
// their line counts (here 3 lines at 1000 ns on device 0, 1 at 1200 on 1).
TEST(LatencyMap, EachFlagDeviceWeighsTheSameInACell) {
  LatencyMap map;
  map.spec.units = {0, 100000};
  for (auto [device, oneway] : {std::pair<int, double>{0, 1000}, {0, 1000}, {0, 1000}, {1, 1200}}) {
    PairStats p = pair_at(0, 100000, oneway);
    p.flag_device = device;
    map.pairs.push_back(p);
  }
  EXPECT_DOUBLE_EQ(map.oneway_ns().at(0, 1), 1100.0);
}

}  // namespace
}  // namespace cumap
