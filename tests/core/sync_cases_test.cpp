// A barrier or contention case summarized over its launches: the headline is
// the median over launches, so one odd launch does not move it.
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

TEST(SummarizeSyncCase, ABarriersNumberIsTheMedianOverItsLaunchesAndItsEpisodesAreAllOfThem) {
  const std::vector<SyncCase> planned{barrier_case(0), barrier_case(256), barrier_case(512)};
  const std::vector<SyncMeasurement> measured{launch_of(500), launch_of(900), launch_of(510)};
  std::vector<SyncLaunchOutcome> launches;
  for (std::size_t i = 0; i < planned.size(); ++i) launches.push_back({&planned[i], &measured[i]});
  const SyncCaseLabel label{"one-side", 2, "far", 1, 0, ""};
  const SyncCaseResult r = summarize_sync_case(label, launches);
  EXPECT_EQ(r.what, "counter");
  EXPECT_EQ(r.participants, (std::vector<int>{3, 7}));
  EXPECT_EQ(r.counter_offsets, (std::vector<std::uint64_t>{0, 256, 512}));
  EXPECT_EQ(r.launches, 3);
  EXPECT_DOUBLE_EQ(r.per_barrier_ns, 510) << "the odd launch (900) does not move it";
  EXPECT_DOUBLE_EQ(r.per_barrier_cycles, 1020);
  EXPECT_EQ(r.values, 120) << "every launch's episodes";
  EXPECT_EQ(r.ns.count, 120);
  EXPECT_DOUBLE_EQ(r.ns.median, 510);
  EXPECT_TRUE(r.measured());
}

TEST(SummarizeSyncCase, OneLaunchThatTimedOutLeavesTheCaseWithoutValues) {
  const std::vector<SyncCase> planned{barrier_case(0), barrier_case(256)};
  std::vector<SyncMeasurement> measured{launch_of(500), launch_of(500, 3)};
  measured[1].timed_out = true;
  const std::vector<SyncLaunchOutcome> launches{{&planned[0], &measured[0]}, {&planned[1], &measured[1]}};
  const SyncCaseResult r = summarize_sync_case(SyncCaseLabel{"spread", 2, "near", 0, 0, ""}, launches);
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
  const SyncCaseResult r = summarize_sync_case(SyncCaseLabel{"spread", 2, "near", 0, 0, ""}, launches);
  EXPECT_EQ(r.what, "add");
  EXPECT_DOUBLE_EQ(r.ops_per_us, 9.5);
  EXPECT_TRUE(std::isnan(r.per_barrier_ns)) << "contention has no barriers";
  EXPECT_EQ(r.values, 15) << "30 batches of 2 participants";
}

}  // namespace
}  // namespace cumap
