// The contract of a sync plan (backend.hpp: Backend::open_sync, SyncSession)
// run through the one loop over its cases (measure_sync_plan,
// run/sync_run.hpp), asserted alike for every backend of the suite: every
// case once, in plan order, under its tag; the stop request asked before
// every case; progress after each case; a case that times out or cannot
// run comes back marked and the next one runs; a bad plan is refused before
// any case. Two participants, a few episodes: CI has two cores.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "backend_factories.hpp"
#include "cumap/error.hpp"
#include "cumap/protocol.hpp"
#include "run/sync_run.hpp"

namespace cumap {
namespace {

using conformance::factories;
using conformance::factory_name;

constexpr int kEpisodes = 10;

class SyncContract : public conformance::BackendTest {
 protected:
  // A barrier (or contention) among `participants`, on lines of its own
  // starting at line `first_line`.
  static SyncCase sync_case(std::vector<UnitRef> participants, int tag, std::uint64_t first_line) {
    SyncCase c;
    c.participants = std::move(participants);
    c.counter = first_line * protocol::kLineBytes;
    c.release = (first_line + 1) * protocol::kLineBytes;
    c.episodes = kEpisodes;
    c.warmup = 2;
    c.ops_per_batch = 8;
    c.tag = tag;
    return c;
  }
  static SyncCase barrier(BarrierImpl impl, std::vector<UnitRef> participants, int tag, std::uint64_t first_line) {
    SyncCase c = sync_case(std::move(participants), tag, first_line);
    c.impl = impl;
    return c;
  }
  static SyncCase contention(ContentionOp op, std::vector<UnitRef> participants, int tag, std::uint64_t first_line) {
    SyncCase c = sync_case(std::move(participants), tag, first_line);
    c.contention = true;
    c.op = op;
    return c;
  }
  static SyncPlan plan_of(std::vector<SyncCase> cases) {
    SyncPlan plan;
    plan.cases = std::move(cases);
    plan.timeout_ms = 20000.0;  // a loaded 2-core machine does not reach it
    return plan;
  }
  // A counter barrier, a flag barrier and contention by add, on the first two units.
  SyncPlan three_cases() const {
    const std::vector<UnitRef> two{units[0], units[1]};
    return plan_of({barrier(BarrierImpl::Counter, two, 5, 2), barrier(BarrierImpl::Flag, two, 6, 4),
                    contention(ContentionOp::Add, two, 7, 6)});
  }
};

// A measured case: its values finite and positive, as many as it has
// episodes (barrier) or participants x batches (contention).
void expect_measured(const SyncCase& c, const SyncMeasurement& m) {
  EXPECT_EQ(m.tag, c.tag);
  EXPECT_FALSE(m.timed_out) << c.tag;
  EXPECT_FALSE(m.unsupported) << c.tag << ": " << m.why;
  const std::size_t values = static_cast<std::size_t>(c.episodes) * (c.contention ? c.participants.size() : 1);
  ASSERT_EQ(m.ns.size(), values) << c.tag;
  for (double ns : m.ns) EXPECT_TRUE(std::isfinite(ns) && ns > 0.0) << c.tag << ": " << ns;
  EXPECT_TRUE(m.cycles.empty() || m.cycles.size() == m.ns.size()) << c.tag;
  if (c.contention) EXPECT_GT(m.ops_per_us, 0.0) << c.tag;
}

TEST_P(SyncContract, EveryCaseComesBackOnceInPlanOrderWithProgressAfterEach) {
  const SyncPlan plan = three_cases();
  std::vector<std::size_t> progress;
  const SyncMeasurements out = measure_sync_plan(*backend, plan, [&](std::size_t done, std::size_t total) {
    EXPECT_EQ(total, plan.cases.size());
    progress.push_back(done);
  });
  EXPECT_FALSE(out.stopped);
  ASSERT_EQ(out.cases.size(), plan.cases.size());
  for (std::size_t i = 0; i < plan.cases.size(); ++i) expect_measured(plan.cases[i], out.cases[i]);
  EXPECT_EQ(progress, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_GT(out.device_seconds, 0.0);
  EXPECT_TRUE(std::isfinite(out.clock_hz) && out.clock_hz >= 0.0) << out.clock_hz;
}

TEST_P(SyncContract, AStopBeforeTheFirstCaseRunsNone) {
  SyncPlan plan = three_cases();
  plan.stop = [] { return true; };
  int progressed = 0;
  const SyncMeasurements out = measure_sync_plan(*backend, plan, [&](std::size_t, std::size_t) { ++progressed; });
  EXPECT_TRUE(out.stopped);
  EXPECT_TRUE(out.cases.empty());
  EXPECT_EQ(progressed, 0);
}

TEST_P(SyncContract, AStopAfterACaseKeepsItAndRunsNoOther) {
  SyncPlan plan = three_cases();
  // Asked from the cpu backend's threads too: a flag, not the vector.
  std::atomic<bool> reported{false};
  plan.stop = [&reported] { return reported.load(); };
  std::vector<std::size_t> progress;
  const SyncMeasurements out = measure_sync_plan(*backend, plan, [&](std::size_t done, std::size_t) {
    progress.push_back(done);
    reported = true;
  });
  EXPECT_TRUE(out.stopped);
  ASSERT_EQ(out.cases.size(), 1u);
  expect_measured(plan.cases[0], out.cases[0]);
  EXPECT_EQ(progress, (std::vector<std::size_t>{1}));
}

TEST_P(SyncContract, ATimedOutCaseIsMarkedAndTheNextCaseRuns) {
  if (!GetParam().make_with_silent_unit) GTEST_SKIP() << GetParam().name << " has no unit that can be made silent";
  if (units.size() < 4) GTEST_SKIP() << "needs four units";
  // The silent unit is its case's last participant.
  const std::unique_ptr<Backend> silent = GetParam().make_with_silent_unit(units[1].unit);
  const SyncPlan plan = plan_of({barrier(BarrierImpl::Counter, {units[0], units[1]}, 5, 2),
                                 barrier(BarrierImpl::Counter, {units[2], units[3]}, 6, 4)});
  std::vector<std::size_t> progress;
  const SyncMeasurements out =
      measure_sync_plan(*silent, plan, [&](std::size_t done, std::size_t) { progress.push_back(done); });
  EXPECT_FALSE(out.stopped);
  ASSERT_EQ(out.cases.size(), 2u);
  EXPECT_EQ(out.cases[0].tag, 5);
  EXPECT_TRUE(out.cases[0].timed_out);
  EXPECT_TRUE(out.cases[0].ns.empty()) << "no value survives a wait that ran out";
  expect_measured(plan.cases[1], out.cases[1]);
  EXPECT_EQ(progress, (std::vector<std::size_t>{1, 2}));
}

// The platform's barrier among two units: GPUs run grid sync only with every
// unit and mark it unsupported, the cpu's std::barrier runs it; either way
// the next case runs.
TEST_P(SyncContract, ACaseTheDeviceCannotRunIsMarkedAndTheNextCaseRuns) {
  const std::vector<UnitRef> two{units[0], units[1]};
  const SyncPlan plan =
      plan_of({barrier(BarrierImpl::Platform, two, 5, 2), barrier(BarrierImpl::Counter, two, 6, 4)});
  std::vector<std::size_t> progress;
  const SyncMeasurements out =
      measure_sync_plan(*backend, plan, [&](std::size_t done, std::size_t) { progress.push_back(done); });
  ASSERT_EQ(out.cases.size(), 2u);
  if (out.cases[0].unsupported) {
    EXPECT_EQ(out.cases[0].tag, 5);
    EXPECT_FALSE(out.cases[0].why.empty());
    EXPECT_TRUE(out.cases[0].ns.empty());
  } else {
    expect_measured(plan.cases[0], out.cases[0]);
  }
  expect_measured(plan.cases[1], out.cases[1]);
  EXPECT_EQ(progress, (std::vector<std::size_t>{1, 2}));
}

TEST_P(SyncContract, ABadPlanIsRefusedBeforeAnyCaseRuns) {
  const UnitRef missing{0, backend->units().back() + 1000};
  // The bad case is the last: the plan is checked whole, before the first runs.
  SyncPlan plan = three_cases();
  plan.cases.push_back(barrier(BarrierImpl::Counter, {units[0], missing}, 8, 8));
  int progressed = 0;
  EXPECT_THROW(measure_sync_plan(*backend, plan, [&](std::size_t, std::size_t) { ++progressed; }), UsageError);
  EXPECT_EQ(progressed, 0);
  SyncPlan shared_line = plan_of({barrier(BarrierImpl::Flag, {units[0], units[1]}, 5, 2)});
  shared_line.cases[0].release = shared_line.cases[0].counter + protocol::kFlagBytes;
  EXPECT_THROW(measure_sync_plan(*backend, shared_line, nullptr), UsageError);
}

INSTANTIATE_TEST_SUITE_P(Backends, SyncContract, ::testing::ValuesIn(factories()), factory_name);

}  // namespace
}  // namespace cumap
