#include <gtest/gtest.h>

#include <cmath>

#include "backends/cuda/cluster/dsm_params.hpp"
#include "backends/cuda/cluster/dsm_plan.hpp"
#include "cumap/error.hpp"

namespace cumap::cuda {
namespace {

MeasurementPlan dsm_plan(std::vector<std::pair<int, int>> pairs) {
  MeasurementPlan p;
  p.path = Path::Dsm;
  std::vector<int> units;
  for (auto [a, b] : pairs) {
    p.rounds.push_back(Round{{PlannedPair{{0, a}, {0, b}, {}, a * 1000 + b}}});
    units.push_back(a);
    units.push_back(b);
  }
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  for (int u : units) p.units.push_back({0, u});
  return p;
}

TEST(DsmPlan, BelowHopperIsAUsageErrorNamingTheCapability) {
  try {
    require_dsm_capability(8, 6);
    FAIL() << "no error below 9.0";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--via dsm needs compute capability 9.0 or newer (this GPU: 8.6)");
  }
  EXPECT_NO_THROW(require_dsm_capability(9, 0));
  EXPECT_NO_THROW(require_dsm_capability(10, 0));
}

TEST(DsmPlan, RejectsPlansThePathCannotRun) {
  const std::vector<int> sms{0, 1, 2, 3};
  MeasurementPlan ok = dsm_plan({{0, 1}, {2, 3}});
  EXPECT_NO_THROW(check_dsm_plan(ok, 0, sms));

  MeasurementPlan global = ok;
  global.path = Path::Global;
  EXPECT_THROW(check_dsm_plan(global, 0, sms), UsageError);
  MeasurementPlan flush = ok;
  flush.flush_cache = true;
  EXPECT_THROW(check_dsm_plan(flush, 0, sms), UsageError);
  MeasurementPlan persist = ok;
  persist.l2_persist = true;
  EXPECT_THROW(check_dsm_plan(persist, 0, sms), UsageError);
  EXPECT_THROW(check_dsm_plan(dsm_plan({{0, 7}}), 0, sms), UsageError);  // no SM 7
  EXPECT_THROW(check_dsm_plan(ok, 1, sms), UsageError);                  // plan is for device 0
  EXPECT_THROW(check_dsm_plan(dsm_plan({{2, 2}}), 0, sms), UsageError);
}

TEST(DsmPlan, EntriesFollowPlanOrderWithTheirRounds) {
  MeasurementPlan p = dsm_plan({{0, 1}, {2, 3}});
  p.rounds[1].pairs.push_back(PlannedPair{{0, 1}, {0, 0}, {}, 7});
  const PlanEntries e = plan_entries(p);
  ASSERT_EQ(e.wanted.size(), 3u);
  EXPECT_EQ(e.wanted[2].a, 1);
  EXPECT_EQ(e.wanted[2].b, 0);
  EXPECT_EQ(e.round, (std::vector<int>{0, 1, 1}));
  EXPECT_EQ(e.planned[2]->tag, 7);
}

// The entries the kernel finds for SMs x and y.
std::vector<int> lookup(const DsmPairTable& t, int x, int y) {
  const int lo = std::min(x, y), hi = std::max(x, y);
  const int k = lo * t.sm_id_limit + hi;
  return {t.key_entries.begin() + t.key_offsets[k], t.key_entries.begin() + t.key_offsets[k + 1]};
}

TEST(DsmPlan, PairTableFindsPendingEntriesByEitherOrderOfTheSms) {
  const std::vector<WantedPair> wanted{{3, 1}, {1, 3}, {0, 2}, {2, 0}, {1, 9}, {5, 5}};
  const DsmPairTable t = build_pair_table(wanted, {0, 1, 2, 4, 5}, 6);
  ASSERT_EQ(t.key_offsets.size(), 37u);
  EXPECT_EQ(lookup(t, 1, 3), (std::vector<int>{0, 1}));  // plan order within a key
  EXPECT_EQ(lookup(t, 3, 1), (std::vector<int>{0, 1}));
  EXPECT_EQ(lookup(t, 2, 0), (std::vector<int>{2}));     // entry 3 is not pending
  EXPECT_EQ(t.key_entries.size(), 3u);  // SM 9 is beyond the limit, (5,5) no pair
  EXPECT_TRUE(lookup(t, 4, 5).empty());
  EXPECT_THROW(build_pair_table(wanted, {}, 0), std::invalid_argument);
}

TEST(DsmPlan, ClusterSizesGoFromTheLargestDownToTwo) {
  EXPECT_EQ(dsm_cluster_sizes(16), (std::vector<int>{16, 8, 4, 2}));
  EXPECT_EQ(dsm_cluster_sizes(8), (std::vector<int>{8, 4, 2}));
  EXPECT_EQ(dsm_cluster_sizes(12), (std::vector<int>{12, 8, 4, 2}));
  EXPECT_EQ(dsm_cluster_sizes(2), (std::vector<int>{2}));
  EXPECT_TRUE(dsm_cluster_sizes(1).empty());
  EXPECT_EQ(dsm_cluster_sizes(64).front(), kDsmMaxClusterSize);  // the kernel's arrays
}

TEST(DsmPlan, EveryOtherRotationLaunchesASecondWave) {
  EXPECT_EQ(clusters_for_launch(7, 0, 0), 7);
  EXPECT_EQ(clusters_for_launch(7, 1, 0), 14);
  EXPECT_EQ(clusters_for_launch(7, 2, 0), 7);
  EXPECT_EQ(clusters_for_launch(7, 1, 1), 1);
  EXPECT_EQ(clusters_for_launch(0, 1, 0), 0);
}

TEST(DsmPlan, StopsWhenAllMeasuredBudgetSpentOrPlacementSettled) {
  DsmBudget budget;
  budget.max_launches = 10;
  budget.max_seconds = 5;
  budget.stale_launches = 3;
  ClusterCoverage cov({{0, 1}, {2, 3}}, {0, 1, 2, 3});
  EXPECT_EQ(dsm_next_step(cov, 0, 0, 0.0, budget), DsmStop::Continue);
  EXPECT_EQ(dsm_next_step(cov, 10, 0, 0.0, budget), DsmStop::LaunchBudget);
  EXPECT_EQ(dsm_next_step(cov, 1, 0, 5.0, budget), DsmStop::TimeBudget);
  EXPECT_EQ(dsm_next_step(cov, 3, 3, 0.0, budget), DsmStop::Settled);  // nothing seen, nothing to do
  cov.observe({0, 1});  // seen together but not measured: keep launching
  EXPECT_EQ(dsm_next_step(cov, 3, 3, 0.0, budget), DsmStop::Continue);
  cov.mark_measured(0);
  EXPECT_EQ(dsm_next_step(cov, 3, 2, 0.0, budget), DsmStop::Continue);
  EXPECT_EQ(dsm_next_step(cov, 3, 3, 0.0, budget), DsmStop::Settled);
  cov.mark_measured(1);
  EXPECT_EQ(dsm_next_step(cov, 99, 99, 99.0, budget), DsmStop::AllMeasured);
  EXPECT_NE(to_string(DsmStop::Settled).find("cluster"), std::string::npos);
}

TEST(DsmPlan, DecodesCyclesPerRoundTripAndNs) {
  protocol::Counts c;
  c.iters = 10;
  c.samples = 3;
  const PlannedPair planned{{0, 4}, {0, 9}, {8, 12}, 5};
  const std::uint64_t samples[] = {5200, 5300, 5400};
  const PairMeasurement m = decode_dsm_entry(planned, 2, samples, 560, kDsmPairOk, c, 2.0);
  EXPECT_EQ(m.a.unit, 4);
  EXPECT_EQ(m.b.unit, 9);
  EXPECT_EQ(m.tag, 5);
  EXPECT_EQ(m.round, 2);
  EXPECT_EQ(m.flags.first, 8u);
  EXPECT_FALSE(m.timed_out);
  EXPECT_EQ(m.rtt_cycles, (std::vector<double>{520, 530, 540}));
  EXPECT_EQ(m.rtt_ns, (std::vector<double>{260, 265, 270}));
  EXPECT_DOUBLE_EQ(m.cold_rtt_ns, 280.0);

  const PairMeasurement t = decode_dsm_entry(planned, 2, samples, 560, kDsmPongTimedOut, c, 2.0);
  EXPECT_TRUE(t.timed_out);
  EXPECT_TRUE(t.rtt_ns.empty());
  EXPECT_TRUE(std::isnan(t.cold_rtt_ns));
}

TEST(DsmPlan, BarrierTableHasTheMedianPerSizeAscending) {
  const std::vector<ClusterBarrierRow> t = cluster_barrier_table({{16, {300, 100, 200}}, {2, {50}}, {4, {}}}, 2.0);
  ASSERT_EQ(t.size(), 2u);  // size 4 measured nothing
  EXPECT_EQ(t[0].cluster_size, 2);
  EXPECT_EQ(t[1].cluster_size, 16);
  EXPECT_EQ(t[1].clusters, 3);
  EXPECT_DOUBLE_EQ(t[1].median_cycles, 200.0);
  EXPECT_DOUBLE_EQ(t[1].median_ns, 100.0);
}

}  // namespace
}  // namespace cumap::cuda
