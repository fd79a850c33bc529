// Sync plans on the CUDA backend across two fake GPUs: a case is one
// launch on every GPU it touches, prepared on all before any starts, each
// with its own participants and the other's arena by address; times come
// from each participant's own GPU; grid.sync() cannot span GPUs.
#include <gtest/gtest.h>

#include <memory>

#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "cumap/error.hpp"
#include "fake_cuda_runtime.hpp"
#include "run/sync_run.hpp"
#include "sync_case_builders.hpp"

namespace cumap::cuda {
namespace sync_across_gpus_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

using testing::FakeCudaConfig;
using testing::FakeCudaRuntime;

constexpr std::uint64_t kLine = protocol::kLineBytes;
constexpr std::uint32_t kWordsPerLine = kLine / 4;

struct TwoGpus {
  std::unique_ptr<Backend> backend;
  FakeCudaRuntime* gpu0;
  FakeCudaRuntime* gpu1;
};
TwoGpus two_gpus(FakeCudaConfig c0 = {}, FakeCudaConfig c1 = {}) {
  c0.ordinal = 0;
  c1.ordinal = 1;
  auto r0 = std::make_unique<FakeCudaRuntime>(std::move(c0));
  auto r1 = std::make_unique<FakeCudaRuntime>(std::move(c1));
  TwoGpus g{nullptr, r0.get(), r1.get()};
  std::vector<std::unique_ptr<CudaRuntime>> runtimes;
  runtimes.push_back(std::move(r0));
  runtimes.push_back(std::move(r1));
  g.backend = make_cuda_backend_on(std::move(runtimes));
  return g;
}

// A barrier of `impl` among (GPU, SM) participants, counter and release in
// lines 4 and 5 of `counter_gpu`'s arena; 10 episodes after 3.
SyncCase barrier(BarrierImpl impl, std::vector<UnitRef> participants, int counter_gpu = 0, int tag = 0) {
  SyncCase c = test::barrier_case(impl, {}, 4, 10, 3, tag);
  c.participants = std::move(participants);
  c.counter_gpu = counter_gpu;
  return c;
}

SyncPlan plan_of(std::vector<SyncCase> cases) { return test::plan_of(std::move(cases), 10); }

TEST(SyncAcrossGpus, ACaseAcrossGpusLaunchesOnBothAtSystemScopeEachWithItsOwnParticipants) {
  TwoGpus g = two_gpus();
  const SyncMeasurements m =
      measure_sync_plan(*g.backend, plan_of({barrier(BarrierImpl::Counter, {{0, 1}, {1, 2}, {0, 3}})}), nullptr);
  ASSERT_EQ(g.gpu0->sync_launches.size(), 1u);
  ASSERT_EQ(g.gpu1->sync_launches.size(), 1u);
  EXPECT_EQ(g.gpu0->sync_started, 1);
  EXPECT_EQ(g.gpu1->sync_started, 1);
  const SyncLaunch& on0 = g.gpu0->sync_launches[0];
  const SyncLaunch& on1 = g.gpu1->sync_launches[0];
  EXPECT_EQ(on0.self, 0);
  EXPECT_EQ(on1.self, 1);
  EXPECT_EQ(on0.settings.system_scope, 1);
  EXPECT_EQ(on1.settings.system_scope, 1);
  EXPECT_EQ(on0.participant_sms, (std::vector<int>{1, -1, 3}));
  EXPECT_EQ(on1.participant_sms, (std::vector<int>{-1, 2, -1}));
  // Both see both arenas and both control words, the same addresses.
  ASSERT_EQ(on0.arenas.size(), 2u);
  EXPECT_EQ(on0.arenas, on1.arenas);
  EXPECT_NE(on0.arenas[0], on0.arenas[1]);
  EXPECT_EQ(on0.controls, (std::vector<DeviceAddress>{g.gpu0->control_words(), g.gpu1->control_words()}));
  EXPECT_EQ(on0.controls, on1.controls);
  EXPECT_EQ(on0.group_blocks, 16u);
  // The counter is GPU 0's: only GPU 0 zeroes it.
  EXPECT_EQ(on0.counter_member, 0);
  EXPECT_EQ(on1.counter_member, 0);
  EXPECT_EQ(on0.zero_words, (std::vector<std::uint32_t>{4 * kWordsPerLine}));
  EXPECT_TRUE(on1.zero_words.empty());
  ASSERT_EQ(m.cases.size(), 1u);
  EXPECT_FALSE(m.cases[0].timed_out);
  ASSERT_EQ(m.cases[0].cycles.size(), 10u);
  EXPECT_DOUBLE_EQ(m.cases[0].cycles.front(), 1804.0) << "participant 0's GPU times the barrier";
}

TEST(SyncAcrossGpus, TheCounterOnAPeerIsZeroedThereAndTimesComeFromParticipantZerosGpu) {
  FakeCudaConfig slow;
  slow.sync_episode_cycles = 3000;
  slow.calibration_cycles_per_ns = 2.0;
  TwoGpus g = two_gpus({}, slow);
  // Participant 0 on GPU 1, the flag barrier's lines in GPU 1's memory.
  const SyncMeasurements m =
      measure_sync_plan(*g.backend, plan_of({barrier(BarrierImpl::Flag, {{1, 5}, {0, 5}}, 1)}), nullptr);
  const SyncLaunch& on0 = g.gpu0->sync_launches.at(0);
  const SyncLaunch& on1 = g.gpu1->sync_launches.at(0);
  EXPECT_EQ(on0.counter_member, 1);
  EXPECT_EQ(on1.counter_member, 1);
  EXPECT_TRUE(on0.zero_words.empty());
  EXPECT_EQ(on1.zero_words, (std::vector<std::uint32_t>{4 * kWordsPerLine, 5 * kWordsPerLine}));
  ASSERT_EQ(m.cases.at(0).cycles.size(), 10u);
  EXPECT_DOUBLE_EQ(m.cases[0].cycles.front(), 3004.0);
  EXPECT_DOUBLE_EQ(m.cases[0].ns.front(), 3004.0 / 2.0) << "in GPU 1's clock";
}

TEST(SyncAcrossGpus, ACaseOfOneGpuRunsThereAloneAtGpuScope) {
  TwoGpus g = two_gpus();
  measure_sync_plan(*g.backend, plan_of({barrier(BarrierImpl::Counter, {{1, 0}, {1, 1}}, 1)}), nullptr);
  EXPECT_TRUE(g.gpu0->sync_launches.empty());
  ASSERT_EQ(g.gpu1->sync_launches.size(), 1u);
  const SyncLaunch& l = g.gpu1->sync_launches[0];
  EXPECT_EQ(l.arenas.size(), 1u);
  EXPECT_EQ(l.settings.system_scope, 0);
  EXPECT_EQ(l.participant_sms, (std::vector<int>{0, 1}));
}

TEST(SyncAcrossGpus, TwoLevelByGpuGivesEveryLeaderEachGroupsExchangeCounter) {
  TwoGpus g = two_gpus();
  SyncCase c = barrier(BarrierImpl::TwoLevel, {{0, 0}, {1, 0}, {0, 1}, {1, 1}});
  c.group_of = {0, 1, 0, 1};
  c.group_gpu = {0, 1};
  c.group_counter = {8 * kLine, 8 * kLine};
  c.group_release = {9 * kLine, 9 * kLine};
  c.group_exchange = {10 * kLine, 11 * kLine};
  c.counter = c.group_exchange[0];
  measure_sync_plan(*g.backend, plan_of({c}), nullptr);
  for (FakeCudaRuntime* gpu : {g.gpu0, g.gpu1}) {
    const SyncLaunch& l = gpu->sync_launches.at(0);
    EXPECT_EQ(l.groups, 2u);
    ASSERT_EQ(l.exchange.size(), 2u);
    EXPECT_EQ(l.exchange[0].member, 0);
    EXPECT_EQ(l.exchange[0].word, 10 * kWordsPerLine);
    EXPECT_EQ(l.exchange[1].member, 1);
    EXPECT_EQ(l.exchange[1].word, 11 * kWordsPerLine);
    ASSERT_EQ(l.roles.size(), 4u);
    EXPECT_EQ(l.roles[1].group, 1u);
    EXPECT_EQ(l.roles[1].leader, 1);
    EXPECT_EQ(l.roles[3].leader, 0);
  }
  // Each GPU zeroes its own group's counter, release and exchange counter.
  EXPECT_EQ(g.gpu0->sync_launches[0].zero_words,
            (std::vector<std::uint32_t>{8 * kWordsPerLine, 9 * kWordsPerLine, 10 * kWordsPerLine}));
  EXPECT_EQ(g.gpu1->sync_launches[0].zero_words,
            (std::vector<std::uint32_t>{8 * kWordsPerLine, 9 * kWordsPerLine, 11 * kWordsPerLine}));
}

TEST(SyncAcrossGpus, ContentionTakesEachOperationFromItsGpuAndTheLongestGpuSpan) {
  FakeCudaConfig other;
  other.sync_op_cycles = 800;
  other.calibration_cycles_per_ns = 2.0;
  other.sync_span_ns = 150000;
  other.globaltimer_offset_ns = 5'000'000'000;  // its timer is nowhere near GPU 0's
  TwoGpus g = two_gpus({}, other);
  SyncCase c = barrier(BarrierImpl::Counter, {{0, 1}, {1, 1}, {0, 2}, {1, 2}});
  c.contention = true;
  c.op = ContentionOp::Add;
  c.ops_per_batch = 8;
  const SyncMeasurements m = measure_sync_plan(*g.backend, plan_of({c}), nullptr);
  const SyncMeasurement& s = m.cases.at(0);
  ASSERT_EQ(s.cycles.size(), 40u);  // 4 participants x 10 batches, participant-major
  EXPECT_DOUBLE_EQ(s.cycles[0], 400.0);
  EXPECT_DOUBLE_EQ(s.cycles[10], 800.0);
  EXPECT_DOUBLE_EQ(s.ns[10], 800.0 / 2.0);
  // GPU 0's participants 0 and 2: 0 to 200 + 100000 ns; GPU 1's 1 and 3:
  // 100 to 300 + 150000 ns of its own timer. The longest: 150200 ns.
  EXPECT_DOUBLE_EQ(s.ops_per_us, 4 * 10 * 8 / 150.2);
}

TEST(SyncAcrossGpus, GridSyncCannotSpanGpusAndSaysWhy) {
  TwoGpus g = two_gpus();
  std::vector<UnitRef> both, gpu1;
  for (int sm = 0; sm < 8; ++sm) {
    both.push_back({0, sm});
    both.push_back({1, sm});
    gpu1.push_back({1, sm});
  }
  const SyncMeasurements m = measure_sync_plan(*g.backend, 
      plan_of({barrier(BarrierImpl::Platform, both, 0, 1), barrier(BarrierImpl::Platform, gpu1, 1, 2)}), nullptr);
  ASSERT_EQ(m.cases.size(), 2u);
  EXPECT_TRUE(m.cases[0].unsupported);
  EXPECT_NE(m.cases[0].why.find("one GPU's grid"), std::string::npos) << m.cases[0].why;
  EXPECT_FALSE(m.cases[1].unsupported) << "every SM of one GPU";
  EXPECT_TRUE(g.gpu0->sync_launches.empty());
  ASSERT_EQ(g.gpu1->sync_launches.size(), 1u);
  EXPECT_EQ(g.gpu1->sync_launches[0].settings.kind, kSyncPlatform);
}

TEST(SyncAcrossGpus, ATimeoutOnEitherGpuTimesTheCaseOutAndTheRunGoesOn) {
  FakeCudaConfig stuck;
  stuck.timeout_sm = 2;
  TwoGpus g = two_gpus({}, stuck);
  const SyncMeasurements m = measure_sync_plan(*g.backend, 
      plan_of({barrier(BarrierImpl::Flag, {{0, 2}, {1, 2}}), barrier(BarrierImpl::Flag, {{0, 2}, {1, 3}})}),
      nullptr);
  ASSERT_EQ(m.cases.size(), 2u);
  EXPECT_TRUE(m.cases[0].timed_out);
  EXPECT_TRUE(m.cases[0].ns.empty());
  EXPECT_FALSE(m.cases[1].timed_out);
  EXPECT_EQ(m.cases[1].ns.size(), 10u);
}

TEST(SyncAcrossGpus, AnAbortOnOneGpuIsAFailureOnceBothFinished) {
  FakeCudaConfig aborts;
  aborts.abort_launch = kAbortWaitTimeout;
  TwoGpus g = two_gpus({}, aborts);
  EXPECT_THROW(measure_sync_plan(*g.backend, plan_of({barrier(BarrierImpl::Counter, {{0, 0}, {1, 0}})}), nullptr),
               RuntimeFailure);
  EXPECT_EQ(g.gpu0->sync_started, 1);
  // GPU 0's launch was finished: the next case prepares and runs there.
  EXPECT_NO_THROW(measure_sync_plan(*g.backend, plan_of({barrier(BarrierImpl::Counter, {{0, 0}, {0, 1}})}), nullptr));
}

TEST(SyncAcrossGpus, LinesOnAGpuTheRunLacksAreRefusedBeforeAnyLaunch) {
  TwoGpus g = two_gpus();
  EXPECT_THROW(measure_sync_plan(*g.backend, plan_of({barrier(BarrierImpl::Counter, {{0, 0}, {1, 0}}, 2)}), nullptr),
               UsageError);
  EXPECT_TRUE(g.gpu0->sync_launches.empty());
  EXPECT_TRUE(g.gpu1->sync_launches.empty());
}

}  // namespace
}  // namespace cumap::cuda
