// Sync plans on the CUDA backend without a GPU: the plan checks, one
// launch per case with the words it uses zeroed, grid.sync() only at every
// SM, timeouts, the stop request, and how records become measurements.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "backends/cuda/sync_measure.hpp"
#include "cumap/error.hpp"
#include "fake_cuda_runtime.hpp"
#include "fake_rig.hpp"
#include "run/sync_run.hpp"
#include "sync_case_builders.hpp"

namespace cumap::cuda {
namespace {

using testing::FakeCudaConfig;
using testing::FakeCudaRuntime;

constexpr std::uint64_t kLine = protocol::kLineBytes;

// Counter and release in lines 4 and 5; 10 episodes after 3.
SyncCase barrier(BarrierImpl impl, const std::vector<int>& sms, int tag = 0) {
  return test::barrier_case(impl, sms, 4, 10, 3, tag);
}

SyncCase contention(ContentionOp op, std::vector<int> sms) {
  SyncCase c = barrier(BarrierImpl::Counter, sms);
  c.contention = true;
  c.op = op;
  c.ops_per_batch = 8;
  return c;
}

SyncPlan plan_of(std::vector<SyncCase> cases) { return test::plan_of(std::move(cases), 10); }

TEST(Sync, EachCaseIsOneLaunchWithItsWordsZeroed) {
  Rig r = rig();
  SyncCase two = barrier(BarrierImpl::TwoLevel, {2, 3, 6, 7}, 7);
  two.group_of = {0, 0, 1, 1};
  two.group_counter = {8 * kLine, 9 * kLine};
  two.group_release = {10 * kLine, 11 * kLine};
  const SyncMeasurements m =
      measure_sync_plan(*r.backend, plan_of({barrier(BarrierImpl::Counter, {0, 1}), two}), nullptr);
  ASSERT_EQ(r.rt->sync_launches.size(), 2u);
  ASSERT_EQ(m.cases.size(), 2u);
  EXPECT_EQ(m.cases[1].tag, 7);
  const SyncLaunch& l = r.rt->sync_launches[1];
  EXPECT_EQ(l.settings.kind, kSyncTwoLevel);
  EXPECT_EQ(l.participant_sms, (std::vector<int>{2, 3, 6, 7}));
  EXPECT_EQ(l.counter_word, 4 * kLine / 4);
  EXPECT_EQ(l.release_word, 5 * kLine / 4);
  EXPECT_EQ(l.zero_words, (std::vector<std::uint32_t>{128, 160, 256, 288, 320, 352}));
  EXPECT_EQ(l.groups, 2u);
  ASSERT_EQ(l.roles.size(), 4u);
  // The first participant of each group leads it.
  EXPECT_EQ(l.roles[0].leader, 1);
  EXPECT_EQ(l.roles[1].leader, 0);
  EXPECT_EQ(l.roles[2].leader, 1);
  EXPECT_EQ(l.roles[3].leader, 0);
  EXPECT_EQ(l.roles[3].group_counter_word, 9 * kLine / 4);
  EXPECT_EQ(l.roles[3].group_release_word, 11 * kLine / 4);
  EXPECT_EQ(l.roles[3].group_size, 2u);
  // Every wait is bounded by timeout_ms at the fastest clock: 10 ms at 1.98 GHz.
  EXPECT_EQ(l.settings.wait_budget_cycles, budget_cycles(10.0, 1.98e9));
  EXPECT_EQ(r.rt->sync_launches[0].settings.kind, kSyncCounter);
  EXPECT_TRUE(r.rt->sync_launches[0].roles.empty());
  EXPECT_EQ(r.rt->sync_launches[0].zero_words, (std::vector<std::uint32_t>{128}));
}

TEST(Sync, BarrierEpisodesAreLeaveToLeaveAfterTheWarmup) {
  Rig r = rig();
  const SyncMeasurements m = measure_sync_plan(*r.backend, plan_of({barrier(BarrierImpl::Flag, {0, 1, 2})}), nullptr);
  ASSERT_EQ(m.cases.size(), 1u);
  const SyncMeasurement& c = m.cases[0];
  EXPECT_FALSE(c.timed_out);
  ASSERT_EQ(c.cycles.size(), 10u);
  ASSERT_EQ(c.ns.size(), 10u);
  // The fake leaves episode e at 1800 + e cycles after e - 1: the first timed one is episode 4.
  EXPECT_DOUBLE_EQ(c.cycles.front(), 1804.0);
  EXPECT_DOUBLE_EQ(c.cycles.back(), 1813.0);
  // Launches of 1 ms are too short to time the clock: the calibration's 1.6 cycles/ns.
  EXPECT_DOUBLE_EQ(c.ns.front(), 1804.0 / 1.6);
  EXPECT_DOUBLE_EQ(m.clock_hz, 1.6e9);
  EXPECT_DOUBLE_EQ(m.device_seconds, 1e-3);
}

TEST(Sync, ContentionIsPerOperationAndOperationsPerMicrosecond) {
  Rig r = rig();
  SyncCase c = contention(ContentionOp::Cas, {1, 4, 5});
  const SyncMeasurements m = measure_sync_plan(*r.backend, plan_of({c}), nullptr);
  EXPECT_EQ(r.rt->sync_launches[0].settings.kind, kSyncContentionCas);
  EXPECT_EQ(r.rt->sync_launches[0].settings.ops_per_batch, 8);
  const SyncMeasurement& s = m.cases[0];
  ASSERT_EQ(s.cycles.size(), 30u);  // 3 participants x 10 batches
  for (double cyc : s.cycles) EXPECT_DOUBLE_EQ(cyc, 400.0);
  EXPECT_DOUBLE_EQ(s.ns[0], 400.0 / 1.6);
  // 3 x 10 x 8 operations from the first start (0 ns) to the last end (200 + 100000 ns).
  EXPECT_DOUBLE_EQ(s.ops_per_us, 240.0 / 100.2);
}

TEST(Sync, GridSyncOnlyWithEverySm) {
  Rig r = rig();
  const SyncMeasurements m = measure_sync_plan(*r.backend, 
      plan_of({barrier(BarrierImpl::Platform, {0, 1, 2, 3, 4, 5, 6}, 1),
               barrier(BarrierImpl::Platform, {7, 6, 5, 4, 3, 2, 1, 0}, 2)}),
      nullptr);
  ASSERT_EQ(m.cases.size(), 2u);
  EXPECT_TRUE(m.cases[0].unsupported);
  EXPECT_EQ(m.cases[0].why, "grid.sync() synchronizes the whole grid: measured only with every SM");
  EXPECT_TRUE(m.cases[0].ns.empty());
  EXPECT_EQ(m.cases[0].tag, 1);
  EXPECT_FALSE(m.cases[1].unsupported);
  EXPECT_EQ(m.cases[1].ns.size(), 10u);
  // Only the case it can run was launched; participant 0 (SM 7) times it.
  ASSERT_EQ(r.rt->sync_launches.size(), 1u);
  EXPECT_EQ(r.rt->sync_launches[0].settings.kind, kSyncPlatform);
  EXPECT_EQ(r.rt->sync_launches[0].participant_sms.front(), 7);
}

TEST(Sync, ATimedOutCaseIsMarkedAndTheRunGoesOn) {
  FakeCudaConfig cfg;
  cfg.timeout_sm = 3;
  Rig r = rig(cfg);
  const SyncMeasurements m = measure_sync_plan(*r.backend, 
      plan_of({barrier(BarrierImpl::Counter, {2, 3}), barrier(BarrierImpl::Counter, {4, 5})}), nullptr);
  ASSERT_EQ(m.cases.size(), 2u);
  EXPECT_TRUE(m.cases[0].timed_out);
  EXPECT_TRUE(m.cases[0].ns.empty());
  EXPECT_FALSE(m.cases[1].timed_out);
  EXPECT_EQ(m.cases[1].ns.size(), 10u);
}

TEST(Sync, TheSilentSmHookReachesTheKernel) {
  CudaTestHooks hooks;
  hooks.silent_sm = 5;
  Rig r = rig({}, hooks);
  const SyncMeasurements m = measure_sync_plan(*r.backend, plan_of({barrier(BarrierImpl::Flag, {4, 5})}), nullptr);
  EXPECT_EQ(r.rt->sync_launches[0].settings.silent_sm, 5);
  EXPECT_TRUE(m.cases[0].timed_out);
}

TEST(Sync, StopIsAskedBetweenCases) {
  Rig r = rig();
  SyncPlan p = plan_of({barrier(BarrierImpl::Counter, {0, 1}), barrier(BarrierImpl::Counter, {0, 2}),
                        barrier(BarrierImpl::Counter, {0, 3})});
  int asked = 0;
  p.stop = [&asked] { return ++asked == 2; };
  std::vector<std::size_t> progress;
  const SyncMeasurements m =
      measure_sync_plan(*r.backend, p, [&](std::size_t done, std::size_t total) {
        EXPECT_EQ(total, 3u);
        progress.push_back(done);
      });
  EXPECT_TRUE(m.stopped);
  EXPECT_EQ(m.cases.size(), 1u);
  EXPECT_EQ(r.rt->sync_launches.size(), 1u);
  EXPECT_EQ(progress, (std::vector<std::size_t>{1}));
}

TEST(Sync, BadPlansAreRefusedBeforeAnyLaunch) {
  Rig r = rig();
  SyncPlan unknown_sm = plan_of({barrier(BarrierImpl::Counter, {0, 8})});
  EXPECT_THROW(measure_sync_plan(*r.backend, unknown_sm, nullptr), UsageError);
  SyncPlan mbarrier = plan_of({barrier(BarrierImpl::Counter, {0, 1})});
  mbarrier.probe = Probe::Mbarrier;
  EXPECT_THROW(measure_sync_plan(*r.backend, mbarrier, nullptr), UsageError);
  SyncCase shared_line = barrier(BarrierImpl::Flag, {0, 1});
  shared_line.release = shared_line.counter + 64;
  EXPECT_THROW(measure_sync_plan(*r.backend, plan_of({shared_line}), nullptr), UsageError);
  EXPECT_TRUE(r.rt->sync_launches.empty());
}

TEST(Sync, AnAbortedLaunchIsAFailure) {
  FakeCudaConfig cfg;
  cfg.abort_launch = kAbortSharedSm;
  Rig r = rig(cfg);
  EXPECT_THROW(measure_sync_plan(*r.backend, plan_of({barrier(BarrierImpl::Counter, {0, 1})}), nullptr), RuntimeFailure);
}

TEST(Sync, ShortRecordsAreAFailureNotGarbage) {
  SyncCase c = barrier(BarrierImpl::Counter, {0, 1});
  SyncOutcome done;
  done.leave_cycles.assign(13, 0);  // warmup + episodes, one short
  EXPECT_THROW(sync_measurement_from(c, done, 1.5), RuntimeFailure);
  done.leave_cycles.push_back(0);
  EXPECT_EQ(sync_measurement_from(c, done, 1.5).ns.size(), 10u);
}

}  // namespace
}  // namespace cumap::cuda
