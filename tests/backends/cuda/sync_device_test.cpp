// Barriers and contention on an NVIDIA GPU; skips with the reason elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "backends/cuda/cuda_runtime_real.hpp"
#include "core/stats.hpp"
#include "gpu_available.hpp"
#include "run/sync_run.hpp"

namespace cumap {
namespace sync_device_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

constexpr std::uint64_t kLine = protocol::kLineBytes;

std::unique_ptr<Backend> backend() { return make_cuda_backend(DeviceSelection{BackendKind::Cuda, 0, HipUnit::Cu}); }

SyncCase barrier(BarrierImpl impl, const std::vector<int>& sms) {
  SyncCase c;
  c.impl = impl;
  for (int sm : sms) c.participants.push_back({0, sm});
  c.counter = 0;
  c.release = 2 * kLine;
  c.episodes = 200;
  c.warmup = 20;
  return c;
}

SyncPlan plan_of(std::vector<SyncCase> cases, Probe probe = Probe::Cas) {
  SyncPlan p;
  p.cases = std::move(cases);
  p.probe = probe;
  p.timeout_ms = 200;
  return p;
}

// A barrier of two SMs is about one signal between them: hundreds of ns, far
// from nothing and far from a timeout.
void expect_barrier_latency(const SyncMeasurement& m, const char* what) {
  ASSERT_FALSE(m.timed_out) << what;
  ASSERT_FALSE(m.unsupported) << what << ": " << m.why;
  ASSERT_EQ(m.ns.size(), 200u) << what;
  ASSERT_EQ(m.cycles.size(), 200u) << what;
  EXPECT_GT(median(m.ns), 50.0) << what;
  EXPECT_LT(median(m.ns), 50000.0) << what;
  EXPECT_TRUE(std::isfinite(median(m.ns))) << what;
}

TEST(DeviceSync, CounterAndFlagBarriersOfTwoSmsHaveFiniteLatency) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto u = b->units();
  for (Probe probe : {Probe::Cas, Probe::Exch, Probe::AcqRel, Probe::Volatile}) {
    const SyncMeasurements m =
        measure_sync_plan(*b, plan_of({barrier(BarrierImpl::Counter, {u[0], u[1]}), barrier(BarrierImpl::Flag, {u[0], u[1]})},
                                probe),
                        nullptr);
    ASSERT_EQ(m.cases.size(), 2u);
    expect_barrier_latency(m.cases[0], "counter");
    expect_barrier_latency(m.cases[1], "flag");
    EXPECT_GT(m.clock_hz, 1e8);
    EXPECT_GT(m.device_seconds, 0.0);
  }
}

TEST(DeviceSync, TwoLevelBarrierCompletes) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto u = b->units();
  ASSERT_GE(u.size(), 8u);
  SyncCase c = barrier(BarrierImpl::TwoLevel, {u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7]});
  c.group_of = {0, 0, 0, 0, 1, 1, 1, 1};
  c.group_counter = {4 * kLine, 6 * kLine};
  c.group_release = {8 * kLine, 10 * kLine};
  const SyncMeasurements m = measure_sync_plan(*b, plan_of({c}), nullptr);
  expect_barrier_latency(m.cases.at(0), "two-level");
}

TEST(DeviceSync, GridSyncAtEverySmHasFiniteLatencyAndElsewhereIsUnsupported) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto u = b->units();
  const SyncMeasurements m = measure_sync_plan(*b, 
      plan_of({barrier(BarrierImpl::Platform, u), barrier(BarrierImpl::Platform, {u[0], u[1]})}), nullptr);
  ASSERT_EQ(m.cases.size(), 2u);
  expect_barrier_latency(m.cases[0], "grid.sync");
  EXPECT_TRUE(m.cases[1].unsupported);
  EXPECT_FALSE(m.cases[1].why.empty());
}

TEST(DeviceSync, ContendedAddsAndCasesCount) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto u = b->units();
  for (ContentionOp op : {ContentionOp::Add, ContentionOp::Cas}) {
    SyncCase c = barrier(BarrierImpl::Counter, {u[0], u[1]});
    c.contention = true;
    c.op = op;
    c.episodes = 50;
    c.warmup = 5;
    c.ops_per_batch = 64;
    const SyncMeasurements m = measure_sync_plan(*b, plan_of({c}), nullptr);
    const SyncMeasurement& s = m.cases.at(0);
    ASSERT_FALSE(s.timed_out);
    ASSERT_EQ(s.ns.size(), 100u);  // 2 participants x 50 batches
    // A dependent atomic at L2 costs hundreds of cycles, more when contended.
    EXPECT_GT(median(s.cycles), 50.0) << (op == ContentionOp::Add ? "add" : "cas");
    EXPECT_LT(median(s.cycles), 100000.0) << (op == ContentionOp::Add ? "add" : "cas");
    // Two SMs of dependent atomics: at least a few per microsecond, at most a few thousand.
    EXPECT_GT(s.ops_per_us, 0.5) << (op == ContentionOp::Add ? "add" : "cas");
    EXPECT_LT(s.ops_per_us, 5000.0) << (op == ContentionOp::Add ? "add" : "cas");
  }
}

TEST(DeviceSync, ASilentParticipantTimesOutAndTheNextCaseRuns) {
  CUMAP_REQUIRE_GPU();
  const auto u = backend()->units();
  auto b = cuda::make_cuda_backend_on(cuda::make_real_cuda_runtime(0), cuda::CudaTestHooks{u[1]});
  SyncPlan p = plan_of({barrier(BarrierImpl::Flag, {u[0], u[1]}), barrier(BarrierImpl::Counter, {u[2], u[3]})});
  p.timeout_ms = 20;
  const auto t0 = std::chrono::steady_clock::now();
  const SyncMeasurements m = measure_sync_plan(*b, p, nullptr);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(m.cases.size(), 2u);
  EXPECT_TRUE(m.cases[0].timed_out);
  expect_barrier_latency(m.cases[1], "counter after a timeout");
  EXPECT_LT(secs, 5.0);
}

}  // namespace
}  // namespace cumap
