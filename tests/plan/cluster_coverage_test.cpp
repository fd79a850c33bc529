#include <gtest/gtest.h>

#include <cmath>

#include "one_way_matrix.hpp"
#include "plan/cluster_coverage.hpp"

namespace cumap {
namespace {

using test::one_way_matrix;

// Every unordered pair of `units`, a < b, in row-major order.
std::vector<WantedPair> all_pairs(const std::vector<int>& units) {
  std::vector<WantedPair> w;
  for (std::size_t i = 0; i < units.size(); ++i)
    for (std::size_t j = i + 1; j < units.size(); ++j) w.push_back({units[i], units[j]});
  return w;
}

TEST(ClusterCoverage, ObserveCountsWantedPairsSeenTogetherForTheFirstTime) {
  ClusterCoverage cov(all_pairs({0, 1, 2, 3, 4, 5}), {0, 1, 2, 3, 4, 5});
  EXPECT_EQ(cov.observe({0, 1, 2}), 3u);  // 0-1, 0-2, 1-2
  EXPECT_EQ(cov.observe({2, 1, 0}), 0u);  // the same SMs in another rank order: nothing new
  EXPECT_EQ(cov.observe({2, 3}), 1u);
  EXPECT_EQ(cov.coverable_count(), 4u);
  EXPECT_TRUE(cov.co_resident(3, 2));
  EXPECT_TRUE(cov.co_resident(2, 3));
  EXPECT_FALSE(cov.co_resident(0, 3));  // same group through 2, but never one cluster
  EXPECT_FALSE(cov.co_resident(1, 1));
}

TEST(ClusterCoverage, TwoBlocksOnOneSmMakeNoPair) {
  ClusterCoverage cov({{4, 4}, {4, 5}}, {4, 5});
  EXPECT_EQ(cov.observe({4, 4, 5}), 1u);
  EXPECT_FALSE(cov.co_resident(4, 4));
  EXPECT_EQ(cov.coverable_count(), 1u);
}

TEST(ClusterCoverage, EveryEntryOfAPairCountsBothDirectionsAndRepeats) {
  // Ordered maps want (a,b) and (b,a); a plan may also want a pair twice.
  ClusterCoverage cov({{0, 1}, {1, 0}, {0, 1}, {2, 3}}, {0, 1, 2, 3});
  EXPECT_EQ(cov.observe({1, 0}), 3u);
  EXPECT_EQ(cov.coverable_unmeasured(), (std::vector<std::size_t>{0, 1, 2}));
  cov.mark_measured(1);
  cov.mark_measured(1);  // idempotent
  EXPECT_EQ(cov.measured_count(), 1u);
  EXPECT_EQ(cov.remaining(), (std::vector<std::size_t>{0, 2, 3}));
  EXPECT_EQ(cov.coverable_unmeasured(), (std::vector<std::size_t>{0, 2}));
  EXPECT_FALSE(cov.all_measured());
  for (std::size_t e : {0u, 2u, 3u}) cov.mark_measured(e);
  EXPECT_TRUE(cov.all_measured());
  EXPECT_THROW(cov.mark_measured(4), std::out_of_range);
}

TEST(ClusterCoverage, GroupsCountWantedCoResidentAndMeasuredPairs) {
  // Two GPC-like groups, {0,1,2} (joined through 1) and {10,11}; 20 is never
  // in a cluster with anybody.
  ClusterCoverage cov(all_pairs({0, 1, 2, 10, 11, 20}), {0, 1, 2, 10, 11, 20});
  cov.observe({0, 1});
  cov.observe({1, 2});
  cov.observe({11, 10});
  // Entries in row-major order: (0,1)=0 (0,2)=1 (1,2)=5 (10,11)=12.
  cov.mark_measured(0);
  cov.mark_measured(12);
  const std::vector<GroupCoverage> g = cov.groups();
  ASSERT_EQ(g.size(), 2u);  // the lone unit 20 forms no group
  EXPECT_EQ(g[0].units, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(g[0].wanted, 3u);
  EXPECT_EQ(g[0].co_resident, 2u);  // (0,2) only ever shared a group, not a cluster
  EXPECT_EQ(g[0].measured, 1u);
  EXPECT_EQ(g[1].units, (std::vector<int>{10, 11}));
  EXPECT_EQ(g[1].wanted, 1u);
  EXPECT_EQ(g[1].co_resident, 1u);
  EXPECT_EQ(g[1].measured, 1u);

  const nlohmann::json j = cov.to_json();
  EXPECT_EQ(j["wanted"], 15);
  EXPECT_EQ(j["coverable"], 3);
  EXPECT_EQ(j["measured"], 2);
  EXPECT_EQ(j["never_co_resident"], 12);
  EXPECT_EQ(j["clusters_observed"], 3);
  ASSERT_EQ(j["groups"].size(), 2u);
  EXPECT_EQ(j["groups"][0]["co_resident"], 2);
}

TEST(ClusterCoverage, UnitsOutsideTheListCarryNoGroupEvidence) {
  // SM 99 is not a unit of the map: it must not join 0 and 5 into one group.
  ClusterCoverage cov({{0, 5}}, {0, 5});
  cov.observe({0, 99});
  cov.observe({99, 5});
  EXPECT_TRUE(cov.groups().empty());
  EXPECT_EQ(cov.coverable_count(), 0u);
}

PairMeasurement measured(int a, int b, std::vector<double> rtt_ns, bool timed_out = false) {
  PairMeasurement m;
  m.a = {0, a};
  m.b = {0, b};
  m.rtt_ns = std::move(rtt_ns);
  m.timed_out = timed_out;
  return m;
}

TEST(OneWayMatrix, CellsOnlyForMeasuredPairsMirroredWhenUnordered) {
  const ValueMatrix m =
      one_way_matrix({3, 5, 7, 9}, {measured(3, 5, {500, 540, 520}), measured(7, 9, {800}, /*timed_out=*/true)}, false);
  ASSERT_EQ(m.size(), 4u);
  EXPECT_DOUBLE_EQ(m.at(0, 1), 260.0);  // median round trip 520 / 2
  EXPECT_DOUBLE_EQ(m.at(1, 0), 260.0);
  EXPECT_TRUE(std::isnan(m.at(2, 3)));  // timed out
  EXPECT_TRUE(std::isnan(m.at(0, 2)));  // never measured
  for (std::size_t i = 0; i < 4; ++i) EXPECT_TRUE(std::isnan(m.at(i, i)));
}

TEST(OneWayMatrix, OrderedFillsOnlyTheDirectionMeasured) {
  const ValueMatrix m = one_way_matrix({1, 2}, {measured(2, 1, {600})}, true);
  EXPECT_DOUBLE_EQ(m.at(1, 0), 300.0);
  EXPECT_TRUE(std::isnan(m.at(0, 1)));
}

TEST(OneWayMatrix, RepeatedPairTakesTheMedianOfMediansAndSkipsForeignUnits) {
  const ValueMatrix m = one_way_matrix(
      {0, 1}, {measured(0, 1, {400}), measured(1, 0, {600, 600}), measured(0, 1, {1000}), measured(0, 42, {10})},
      false);
  EXPECT_DOUBLE_EQ(m.at(0, 1), 300.0);  // median of 400, 600, 1000 is 600
  EXPECT_DOUBLE_EQ(m.at(1, 0), 300.0);
}

}  // namespace
}  // namespace cumap
