// Barriers and contention on pinned threads (the cpu backend's SyncSession and the
// loop behind it). On CI's 2-core VM a real case has k = 2; cases of more
// participants than cores (two threads pinned to one CPU) check the logic
// only: final counter values, episode counts, no deadlock, never timing.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/cpu_sync.hpp"
#include "cumap/error.hpp"
#include "run/sync_run.hpp"

namespace cumap {
namespace {

using Word = std::atomic<std::uint32_t>;

std::vector<int> two_cpus() {
  const auto backend = make_cpu_backend(DeviceSelection{});
  const std::vector<int> all = backend->units();
  return {all.at(0), all.at(1)};
}

// Words for a case, in lines of their own.
struct Words {
  alignas(128) Word counter{0};
  alignas(128) Word release{0};
  alignas(128) Word group_counter[2]{};
  alignas(128) Word group_release[2]{};
  cpu::SyncWords view() {
    return {&counter, &release, {&group_counter[0], &group_counter[1]}, {&group_release[0], &group_release[1]}};
  }
};

SyncCase barrier(BarrierImpl impl, const std::vector<int>& cpus, int episodes = 50, int warmup = 5) {
  SyncCase c;
  c.impl = impl;
  for (int cpu : cpus) c.participants.push_back({0, cpu});
  c.episodes = episodes;
  c.warmup = warmup;
  c.tag = 7;
  if (impl == BarrierImpl::TwoLevel) {
    // The first half of the participants one group, the rest the other.
    for (std::size_t p = 0; p < cpus.size(); ++p) c.group_of.push_back(2 * p < cpus.size() ? 0 : 1);
    c.group_counter = {0, 0};  // offsets are the backend's business; the words are given directly
    c.group_release = {0, 0};
  }
  return c;
}

constexpr double kTimeoutMs = 20000;  // a descheduled thread must not read as a time-out

void expect_episodes(const cpu::SyncTiming& t, const SyncCase& c) {
  EXPECT_FALSE(t.stopped);
  EXPECT_FALSE(t.measurement.timed_out);
  EXPECT_EQ(t.measurement.tag, c.tag);
  ASSERT_EQ(t.measurement.ns.size(), static_cast<std::size_t>(c.episodes));
  for (double ns : t.measurement.ns) EXPECT_TRUE(std::isfinite(ns) && ns > 0) << ns;
  EXPECT_TRUE(t.measurement.cycles.empty()) << "the cpu backend has no cycle clock";
}

TEST(CpuSync, EveryBarrierOfTwoCompletesItsEpisodes) {
  const std::vector<int> cpus = two_cpus();
  for (BarrierImpl impl : {BarrierImpl::Counter, BarrierImpl::Flag, BarrierImpl::TwoLevel, BarrierImpl::Platform}) {
    SCOPED_TRACE(std::string(to_string(impl)));
    Words w;
    const SyncCase c = barrier(impl, cpus);
    const cpu::SyncTiming t = cpu::run_cpu_sync_case(c, w.view(), Probe::Cas, kTimeoutMs);
    expect_episodes(t, c);
    const std::uint32_t total = 55;
    if (impl == BarrierImpl::Counter) {
      EXPECT_EQ(w.counter.load(), 2 * total);
    }
    if (impl == BarrierImpl::Flag) {
      EXPECT_EQ(w.counter.load(), 2 * total);
      EXPECT_EQ(w.release.load(), total) << "the last arriver releases each episode by its number";
    }
    if (impl == BarrierImpl::TwoLevel) {
      EXPECT_EQ(w.counter.load(), 2 * total) << "both leaders meet every episode";
      EXPECT_EQ(w.group_counter[0].load(), total);
      EXPECT_EQ(w.group_release[1].load(), total);
    }
  }
}

TEST(CpuSync, MoreParticipantsThanCoresStillMeetEveryEpisode) {
  // Four threads on two CPUs: the logic of k = 4 (groups of two, leaders
  // waiting for their group), whatever the timing.
  const std::vector<int> two = two_cpus();
  const std::vector<int> cpus{two[0], two[1], two[0], two[1]};
  for (BarrierImpl impl : {BarrierImpl::Counter, BarrierImpl::Flag, BarrierImpl::TwoLevel, BarrierImpl::Platform}) {
    SCOPED_TRACE(std::string(to_string(impl)));
    const SyncCase c = barrier(impl, cpus, 20, 2);
    for (Probe probe : {Probe::Cas, Probe::AcqRel}) {
      Words fresh;
      const cpu::SyncTiming t = cpu::run_cpu_sync_case(c, fresh.view(), probe, kTimeoutMs);
      expect_episodes(t, c);
      if (impl == BarrierImpl::TwoLevel) {
        EXPECT_EQ(fresh.counter.load(), 2u * 22u) << "two leaders";
        EXPECT_EQ(fresh.group_counter[0].load(), 2u * 22u) << "two members each";
      } else if (impl != BarrierImpl::Platform) {
        EXPECT_EQ(fresh.counter.load(), 4u * 22u);
      }
    }
  }
}

TEST(CpuSync, ContentionCountsEveryOperation) {
  const std::vector<int> cpus = two_cpus();
  for (ContentionOp op : {ContentionOp::Add, ContentionOp::Cas}) {
    SCOPED_TRACE(std::string(to_string(op)));
    Words w;
    SyncCase c;
    c.contention = true;
    c.op = op;
    c.participants = {{0, cpus[0]}, {0, cpus[1]}};
    c.episodes = 30;
    c.warmup = 3;
    c.ops_per_batch = 16;
    const cpu::SyncTiming t = cpu::run_cpu_sync_case(c, w.view(), Probe::Cas, kTimeoutMs);
    EXPECT_FALSE(t.measurement.timed_out);
    ASSERT_EQ(t.measurement.ns.size(), 2u * 30u) << "per participant and timed batch";
    for (double ns : t.measurement.ns) EXPECT_GT(ns, 0);
    EXPECT_GT(t.measurement.ops_per_us, 0);
    const std::uint32_t attempts = 2 * 33 * 16;
    if (op == ContentionOp::Add) EXPECT_EQ(w.counter.load(), attempts);
    else EXPECT_TRUE(w.counter.load() > 0 && w.counter.load() <= attempts) << w.counter.load();
  }
}

TEST(CpuSync, ABarrierNobodyReleasesTimesOut) {
  const std::vector<int> cpus = two_cpus();
  Words w;
  // The counter starts where no arrival can be the last: nobody writes the release flag.
  w.counter = 1000;
  const SyncCase c = barrier(BarrierImpl::Flag, cpus);
  const cpu::SyncTiming t = cpu::run_cpu_sync_case(c, w.view(), Probe::Cas, 50);
  EXPECT_TRUE(t.measurement.timed_out);
  EXPECT_TRUE(t.measurement.ns.empty());
  EXPECT_FALSE(t.stopped);
}

TEST(CpuSync, TheStopRequestEndsACaseWithoutValues) {
  const std::vector<int> cpus = two_cpus();
  for (BarrierImpl impl : {BarrierImpl::Counter, BarrierImpl::Platform}) {
    SCOPED_TRACE(std::string(to_string(impl)));
    Words w;
    std::atomic<int> asked{0};
    const std::function<bool()> stop = [&] { return ++asked > 3; };
    const SyncCase c = barrier(impl, cpus, 1000000, 0);
    const cpu::SyncTiming t = cpu::run_cpu_sync_case(c, w.view(), Probe::Cas, kTimeoutMs, stop);
    EXPECT_TRUE(t.stopped);
    EXPECT_TRUE(t.measurement.ns.empty());
    EXPECT_FALSE(t.measurement.timed_out);
  }
}

SyncPlan backend_plan(const std::vector<int>& cpus) {
  SyncPlan plan;
  plan.timeout_ms = kTimeoutMs;
  for (BarrierImpl impl : {BarrierImpl::Flag, BarrierImpl::Platform}) {
    SyncCase c = barrier(impl, cpus, 20, 2);
    c.counter = 0;
    c.release = 4224;
    c.tag = static_cast<int>(plan.cases.size()) + 10;
    plan.cases.push_back(c);
  }
  return plan;
}

TEST(CpuSync, TheBackendRunsEveryCaseInOrderAndReusesItsWords) {
  const std::vector<int> cpus = two_cpus();
  const auto backend = make_cpu_backend(DeviceSelection{});
  SyncPlan plan = backend_plan(cpus);
  plan.cases.push_back(plan.cases.front());  // the same words again: reset between cases
  std::vector<std::size_t> progress;
  const SyncMeasurements m =
      measure_sync_plan(*backend, plan, [&](std::size_t done, std::size_t) { progress.push_back(done); });
  EXPECT_FALSE(m.stopped);
  ASSERT_EQ(m.cases.size(), 3u);
  EXPECT_EQ(m.cases[0].tag, 10);
  EXPECT_EQ(m.cases[1].tag, 11);
  for (const SyncMeasurement& c : m.cases) EXPECT_EQ(c.ns.size(), 20u);
  EXPECT_EQ(progress, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_GT(m.device_seconds, 0);
}

TEST(CpuSync, TheBackendStopsBetweenCasesAndRefusesABadPlan) {
  const std::vector<int> cpus = two_cpus();
  const auto backend = make_cpu_backend(DeviceSelection{});
  SyncPlan plan = backend_plan(cpus);
  plan.stop = [] { return true; };
  const SyncMeasurements stopped = measure_sync_plan(*backend, plan, {});
  EXPECT_TRUE(stopped.stopped);
  EXPECT_TRUE(stopped.cases.empty());
  SyncPlan bad = backend_plan(cpus);
  bad.cases[0].participants.push_back({0, 1 << 20});
  EXPECT_THROW(measure_sync_plan(*backend, bad, {}), UsageError);
}

}  // namespace
}  // namespace cumap
