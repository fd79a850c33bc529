// A barrier or contention case summarized over its launches: a barrier's
// number is the mean over launches of each launch's mean per barrier, a
// contention case's rate the median over launches.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/sync_cases.hpp"

namespace cumap {
namespace {

SyncCase barrier_case(std::uint64_t counter) {
  SyncCase c;
  c.impl = BarrierImpl::Counter;
  c.participants = {{0, 3}, {0, 7}};
  c.counter = counter;
  return c;
}

// `episodes` episodes of `ns` each (cycles twice as many).
SyncMeasurement launch_of(double ns, int episodes = 40) {
  SyncMeasurement m;
  m.ns.assign(static_cast<std::size_t>(episodes), ns);
  m.cycles.assign(static_cast<std::size_t>(episodes), 2 * ns);
  return m;
}

TEST(SummarizeSyncCase, ABarriersNumberIsTheMeanOverItsLaunchesAndItsEpisodesAreAllOfThem) {
  const std::vector<SyncCase> planned{barrier_case(0), barrier_case(256), barrier_case(512)};
  const std::vector<SyncMeasurement> measured{launch_of(500), launch_of(700), launch_of(510)};
  std::vector<SyncLaunchOutcome> launches;
  for (std::size_t i = 0; i < planned.size(); ++i) launches.push_back({&planned[i], &measured[i]});
  const SyncCaseLabel label{"one-side", 2, "far", 1, 0, "", ""};
  const SyncCaseResult r = summarize_sync_case(label, launches);
  EXPECT_EQ(r.what, "counter");
  EXPECT_EQ(r.participants, (std::vector<int>{3, 7}));
  EXPECT_EQ(r.counter_offsets, (std::vector<std::uint64_t>{0, 256, 512}));
  EXPECT_EQ(r.launches, 3);
  EXPECT_DOUBLE_EQ(r.per_barrier_ns, 570) << "a launch on a slow line counts as one of three";
  EXPECT_DOUBLE_EQ(r.per_barrier_cycles, 1140);
  EXPECT_EQ(r.values, 120) << "every launch's episodes";
  EXPECT_EQ(r.ns.count, 120);
  EXPECT_DOUBLE_EQ(r.ns.median, 510);
  EXPECT_TRUE(r.measured());
}

// Launches that settle into one of two modes (episodes alternating 250 and
// 390 ns, or all at 400), as small barriers on an H200 do by their lines:
// a median over launches, or over a launch's episodes, lands on one mode or
// the other as the mix tips, where the mean moves with the mix.
TEST(SummarizeSyncCase, LaunchesInTwoModesGiveTheirMeanNotWhicheverModeHasOneLaunchMore) {
  const auto alternating = [] {
    SyncMeasurement m;
    for (int e = 0; e < 40; ++e) m.ns.push_back(e % 2 == 0 ? 250.0 : 390.0);
    return m;
  };
  std::vector<SyncCase> planned;
  for (int i = 0; i < 6; ++i) planned.push_back(barrier_case(256u * i));
  const auto per_barrier = [&](int slow) {
    std::vector<SyncMeasurement> measured;
    for (int i = 0; i < 6; ++i) measured.push_back(i < slow ? launch_of(400) : alternating());
    std::vector<SyncLaunchOutcome> launches;
    for (int i = 0; i < 6; ++i) launches.push_back({&planned[i], &measured[i]});
    return summarize_sync_case(SyncCaseLabel{"alternating", 4, "near", 0, 0, "", ""}, launches).per_barrier_ns;
  };
  EXPECT_DOUBLE_EQ(per_barrier(2), (2 * 400.0 + 4 * 320.0) / 6);
  EXPECT_DOUBLE_EQ(per_barrier(4), (4 * 400.0 + 2 * 320.0) / 6);
  EXPECT_LT(per_barrier(4) - per_barrier(2), 30.0) << "two launches of six changed mode";
}

TEST(SummarizeSyncCase, OneLaunchThatTimedOutLeavesTheCaseWithoutValues) {
  const std::vector<SyncCase> planned{barrier_case(0), barrier_case(256)};
  std::vector<SyncMeasurement> measured{launch_of(500), launch_of(500, 3)};
  measured[1].timed_out = true;
  const std::vector<SyncLaunchOutcome> launches{{&planned[0], &measured[0]}, {&planned[1], &measured[1]}};
  const SyncCaseResult r = summarize_sync_case(SyncCaseLabel{"spread", 2, "near", 0, 0, "", ""}, launches);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.measured());
  EXPECT_TRUE(std::isnan(r.per_barrier_ns));
  EXPECT_TRUE(std::isnan(r.ns.median)) << "no values, not zeros";
  EXPECT_EQ(r.values, 0);
}

TEST(SummarizeSyncCase, ContentionRatesAreTheMedianOverLaunches) {
  SyncCase c = barrier_case(0);
  c.contention = true;
  c.op = ContentionOp::Add;
  const std::vector<SyncCase> planned{c, c, c};
  std::vector<SyncMeasurement> measured{launch_of(200, 10), launch_of(210, 10), launch_of(400, 10)};
  measured[0].ops_per_us = 10.0;
  measured[1].ops_per_us = 9.5;
  measured[2].ops_per_us = 5.0;
  std::vector<SyncLaunchOutcome> launches;
  for (std::size_t i = 0; i < planned.size(); ++i) launches.push_back({&planned[i], &measured[i]});
  const SyncCaseResult r = summarize_sync_case(SyncCaseLabel{"spread", 2, "near", 0, 0, "", ""}, launches);
  EXPECT_EQ(r.what, "add");
  EXPECT_DOUBLE_EQ(r.ops_per_us, 9.5);
  EXPECT_TRUE(std::isnan(r.per_barrier_ns)) << "contention has no barriers";
  EXPECT_EQ(r.values, 15) << "30 batches of 2 participants";
}

}  // namespace
}  // namespace cumap
