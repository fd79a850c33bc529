// Sync plans on the HIP backend against the fake runtime: a kernel per
// participant on its unit's masked stream, grid sync only at every unit and
// with cooperative launch, cases too wide for the stream budget refused as
// unsupported, timeouts, the stop request, and the conversion of ticks and
// cycles.
#include <gtest/gtest.h>

#include "backends/hip/hip_backend.hpp"
#include "backends/hip/hip_sync.hpp"
#include "cumap/error.hpp"
#include "fake_hip_runtime.hpp"
#include "first_units.hpp"
#include "run/sync_run.hpp"
#include "sync_case_builders.hpp"

namespace cumap {
namespace hip_sync_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

using testing::FakeHipConfig;
using testing::FakeHipRuntime;

constexpr std::uint64_t kLine = protocol::kLineBytes;

struct Rig {
  FakeHipRuntime* fake = nullptr;
  std::unique_ptr<Backend> backend;
};

Rig make_rig(FakeHipConfig cfg = {}, DeviceSelection selection = {}) {
  auto fake = std::make_unique<FakeHipRuntime>(std::move(cfg));
  Rig rig;
  rig.fake = fake.get();
  rig.backend = make_hip_backend_with_runtime(std::move(fake), selection);
  return rig;
}

// Counter and release in lines 2 and 3; 10 episodes after 2.
SyncCase barrier(BarrierImpl impl, const std::vector<int>& units, int tag = 0) {
  return test::barrier_case(impl, units, 2, 10, 2, tag);
}

SyncPlan plan_of(std::vector<SyncCase> cases) { return test::plan_of(std::move(cases), 5); }

using test::first_units;

TEST(Sync, EachParticipantRunsOnItsOwnUnitsStream) {
  Rig r = make_rig();
  SyncCase two = barrier(BarrierImpl::TwoLevel, {9, 3, 12, 5}, 4);
  two.group_of = {0, 1, 0, 1};
  two.group_counter = {4 * kLine, 5 * kLine};
  two.group_release = {6 * kLine, 7 * kLine};
  SyncPlan p = plan_of({two});
  p.arena.offset_bytes = 256;
  const SyncMeasurements m = measure_sync_plan(*r.backend, p, nullptr);
  ASSERT_EQ(r.fake->sync_runs.size(), 1u);
  const auto& run = r.fake->sync_runs[0];
  EXPECT_EQ(run.cus, (std::vector<int>{9, 3, 12, 5}));
  EXPECT_EQ(run.args.kind, HipSyncKind::TwoLevel);
  // Offsets are into the allocation: the arena starts offset_bytes in.
  EXPECT_EQ(run.args.counter_offset, 256 + 2 * kLine);
  EXPECT_EQ(run.args.zero_offsets,
            (std::vector<std::uint64_t>{256 + 2 * kLine, 256 + 3 * kLine, 256 + 4 * kLine, 256 + 5 * kLine,
                                        256 + 6 * kLine, 256 + 7 * kLine}));
  ASSERT_EQ(run.args.roles.size(), 4u);
  EXPECT_TRUE(run.args.roles[0].leader);
  EXPECT_TRUE(run.args.roles[1].leader);
  EXPECT_FALSE(run.args.roles[2].leader);
  EXPECT_EQ(run.args.roles[3].group_release_offset, 256 + 7 * kLine);
  EXPECT_EQ(run.args.groups, 2u);
  // 5 ms at the 100 MHz wall clock.
  EXPECT_EQ(run.args.wait_budget_ticks, 500001u);
  ASSERT_EQ(m.cases.size(), 1u);
  EXPECT_EQ(m.cases[0].tag, 4);
}

TEST(Sync, BarrierEpisodesInWallNsAndShaderCycles) {
  Rig r = make_rig();
  const SyncMeasurements m = measure_sync_plan(*r.backend, plan_of({barrier(BarrierImpl::Counter, {0, 1})}), nullptr);
  const SyncMeasurement& c = m.cases.at(0);
  ASSERT_EQ(c.ns.size(), 10u);
  ASSERT_EQ(c.cycles.size(), 10u);
  // Episode 3 (the first after two of warm-up) took 83 ticks of 10 ns.
  EXPECT_DOUBLE_EQ(c.ns.front(), 830.0);
  EXPECT_NEAR(c.cycles.front(), 83 * 17.0, 1.0);
  EXPECT_NEAR(m.clock_hz, 1.7e9, 1.7e9 * 0.01);
  EXPECT_GT(m.device_seconds, 0.0);
}

TEST(Sync, ContentionPerOperationAndOperationsPerMicrosecond) {
  Rig r = make_rig();
  SyncCase c = barrier(BarrierImpl::Counter, {0, 1, 2, 3});
  c.contention = true;
  c.op = ContentionOp::Add;
  c.ops_per_batch = 16;
  const SyncMeasurements m = measure_sync_plan(*r.backend, plan_of({c}), nullptr);
  EXPECT_EQ(r.fake->sync_runs.at(0).args.kind, HipSyncKind::ContentionAdd);
  const SyncMeasurement& s = m.cases.at(0);
  ASSERT_EQ(s.ns.size(), 40u);
  EXPECT_DOUBLE_EQ(s.ns.front(), 200.0);  // 20 ticks of 10 ns per operation
  // 4 x 10 x 16 operations from tick 1000 to 1030 + 10 x 320 ticks: 3230 ticks = 32.3 us.
  EXPECT_DOUBLE_EQ(s.ops_per_us, 640.0 / 32.3);
}

TEST(Sync, GridSyncNeedsEveryUnitAndCooperativeLaunch) {
  Rig r = make_rig();
  const SyncMeasurements m = measure_sync_plan(*r.backend, 
      plan_of({barrier(BarrierImpl::Platform, first_units(64)), barrier(BarrierImpl::Platform, {0, 1})}), nullptr);
  ASSERT_EQ(m.cases.size(), 2u);
  EXPECT_FALSE(m.cases[0].unsupported);
  EXPECT_EQ(m.cases[0].ns.size(), 10u);
  EXPECT_TRUE(m.cases[1].unsupported);
  EXPECT_NE(m.cases[1].why.find("every unit"), std::string::npos);
  ASSERT_EQ(r.fake->sync_runs.size(), 1u);
  EXPECT_EQ(r.fake->sync_runs[0].args.platform_blocks, 64);
  EXPECT_TRUE(r.fake->sync_runs[0].args.streams.empty());

  FakeHipConfig old_runtime;
  old_runtime.cooperative_launch = false;
  Rig o = make_rig(old_runtime);
  const SyncMeasurements n =
      measure_sync_plan(*o.backend, plan_of({barrier(BarrierImpl::Platform, first_units(64))}), nullptr);
  EXPECT_TRUE(n.cases.at(0).unsupported);
  EXPECT_NE(n.cases[0].why.find("cooperative launch"), std::string::npos);
  EXPECT_TRUE(o.fake->sync_runs.empty());
}

TEST(Sync, MoreParticipantsThanStreamsIsUnsupported) {
  DeviceSelection s;
  s.max_streams = 4;
  Rig r = make_rig({}, s);
  const SyncMeasurements m = measure_sync_plan(*r.backend, 
      plan_of({barrier(BarrierImpl::Flag, first_units(5)), barrier(BarrierImpl::Flag, first_units(4))}), nullptr);
  EXPECT_TRUE(m.cases.at(0).unsupported);
  EXPECT_NE(m.cases[0].why.find("--max-streams"), std::string::npos);
  EXPECT_FALSE(m.cases.at(1).unsupported);
  ASSERT_EQ(r.fake->sync_runs.size(), 1u);
  EXPECT_LE(r.fake->max_live_streams, 4u);
}

TEST(Sync, ATimedOutCaseIsMarkedAndTheRunGoesOn) {
  FakeHipConfig cfg;
  cfg.timeout_cu = 1;
  Rig r = make_rig(cfg);
  const SyncMeasurements m = measure_sync_plan(*r.backend, 
      plan_of({barrier(BarrierImpl::Counter, {0, 1}), barrier(BarrierImpl::Counter, {2, 3})}), nullptr);
  EXPECT_TRUE(m.cases.at(0).timed_out);
  EXPECT_TRUE(m.cases[0].ns.empty());
  EXPECT_FALSE(m.cases.at(1).timed_out);
  EXPECT_EQ(m.cases[1].ns.size(), 10u);
}

TEST(Sync, StopIsAskedBetweenCases) {
  Rig r = make_rig();
  SyncPlan p = plan_of({barrier(BarrierImpl::Counter, {0, 1}), barrier(BarrierImpl::Counter, {0, 2})});
  p.stop = [&r] { return !r.fake->sync_runs.empty(); };
  const SyncMeasurements m = measure_sync_plan(*r.backend, p, nullptr);
  EXPECT_TRUE(m.stopped);
  EXPECT_EQ(m.cases.size(), 1u);
}

TEST(Sync, BadPlansAreRefusedBeforeAnyLaunch) {
  Rig r = make_rig();
  EXPECT_THROW(measure_sync_plan(*r.backend, plan_of({barrier(BarrierImpl::Counter, {0, 64})}), nullptr), UsageError);
  SyncPlan mbarrier = plan_of({barrier(BarrierImpl::Counter, {0, 1})});
  mbarrier.probe = Probe::Mbarrier;
  EXPECT_THROW(measure_sync_plan(*r.backend, mbarrier, nullptr), UsageError);
  EXPECT_TRUE(r.fake->sync_runs.empty());
}

TEST(Sync, ParticipantsAreCheckedAgainstTheirHardwareIds) {
  FakeHipConfig cfg;
  cfg.alias_cu = {{3, 2}};  // CU 3's kernels report CU 2's slot: its mask was not honoured
  Rig r = make_rig(cfg);
  measure_sync_plan(*r.backend, plan_of({barrier(BarrierImpl::Counter, {2, 3})}), nullptr);
  const Measurements none = r.backend->measure({}, nullptr);
  EXPECT_FALSE(none.stats.extra["hw_id_warnings"].empty());
}

TEST(Sync, ShortResultsAreAFailureNotGarbage) {
  SyncCase c = barrier(BarrierImpl::Counter, {0, 1});
  HipSyncResult res;
  res.leave_ticks.assign(12, 0);
  res.leave_cycles.assign(12, 0);
  EXPECT_THROW(sync_measurement_from_result(c, res, {100e6, 1.7e9}), RuntimeFailure);
  res.leave_ticks.push_back(0);
  res.leave_cycles.push_back(0);
  EXPECT_EQ(sync_measurement_from_result(c, res, {100e6, 1.7e9}).ns.size(), 10u);
}

}  // namespace
}  // namespace cumap
