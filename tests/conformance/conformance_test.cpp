// The contract of Backend::measure (its stop and progress rules too) and
// probe_lines, asserted alike for every backend this build has
// (backend_factories.hpp), and the protocol's walk (protocol.hpp): which
// unit pings each segment. Plans are small: the CI machine has two cores, so
// the cpu backend runs one pair at a time there.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "backend_factories.hpp"
#include "backends/cpu/cpu_affinity.hpp"
#include "backends/cpu/cpu_pingpong.hpp"
#include "cumap/error.hpp"
#include "cumap/protocol.hpp"

namespace cumap {
namespace {

using conformance::factories;
using conformance::factory_name;

class Contract : public conformance::BackendTest {
 protected:
  // Short counts, a timeout a loaded 2-core machine cannot reach.
  MeasurementPlan plan_of(std::vector<Round> rounds) const {
    MeasurementPlan plan;
    plan.units = units;
    plan.rounds = std::move(rounds);
    plan.counts.iters = 40;
    plan.counts.samples = 3;
    plan.counts.warmup = 10;
    plan.timeout_ms = 20000.0;
    return plan;
  }

  // Every pair of `units` once, one pair a round, each on its own line.
  std::vector<Round> serial_rounds() const {
    std::vector<Round> rounds;
    int tag = 0;
    for (std::size_t i = 0; i < units.size(); ++i)
      for (std::size_t j = i + 1; j < units.size(); ++j, ++tag) {
        const auto line = static_cast<std::uint64_t>(protocol::kLineBytes * 2 * tag);
        rounds.push_back(Round{{{units[i], units[j], {line, line + protocol::kSameLineGapBytes}, tag}}});
      }
    return rounds;
  }
  // The same pairs, flags and tags, disjoint pairs sharing rounds where the units allow.
  std::vector<Round> concurrent_rounds() const {
    std::vector<Round> rounds;
    for (const Round& r : serial_rounds()) {
      const PlannedPair& p = r.pairs[0];
      auto fits = [&](const Round& round) {
        for (const PlannedPair& q : round.pairs)
          if (q.a == p.a || q.a == p.b || q.b == p.a || q.b == p.b) return false;
        return true;
      };
      auto it = std::find_if(rounds.begin(), rounds.end(), fits);
      if (it == rounds.end()) rounds.push_back(Round{{p}});
      else it->pairs.push_back(p);
    }
    return rounds;
  }

};

void expect_returns_the_plan(const MeasurementPlan& plan, const Measurements& out) {
  std::vector<std::pair<const PlannedPair*, int>> planned;
  for (std::size_t r = 0; r < plan.rounds.size(); ++r)
    for (const PlannedPair& p : plan.rounds[r].pairs) planned.push_back({&p, static_cast<int>(r)});
  ASSERT_EQ(out.pairs.size(), planned.size());
  for (std::size_t i = 0; i < planned.size(); ++i) {
    const PairMeasurement& m = out.pairs[i];
    const PlannedPair& p = *planned[i].first;
    EXPECT_EQ(m.a, p.a) << i;
    EXPECT_EQ(m.b, p.b) << i;
    EXPECT_EQ(m.flags, p.flags) << i;
    EXPECT_EQ(m.tag, p.tag) << i;
    EXPECT_EQ(m.round, planned[i].second) << i;
    EXPECT_FALSE(m.timed_out) << i;
    if (!m.timed_out) {
      ASSERT_EQ(m.rtt_ns.size(), static_cast<std::size_t>(plan.counts.samples)) << i;
      for (double ns : m.rtt_ns) EXPECT_TRUE(std::isfinite(ns) && ns > 0.0) << ns;
      EXPECT_TRUE(m.rtt_cycles.empty() || m.rtt_cycles.size() == m.rtt_ns.size());
    }
  }
}

TEST_P(Contract, EveryPlannedPairComesBackOnceInPlanOrder) {
  const MeasurementPlan plan = plan_of(serial_rounds());
  std::vector<std::size_t> progress;
  const Measurements out = backend->measure(plan, [&](std::size_t done, std::size_t total) {
    EXPECT_EQ(total, plan.rounds.size());
    progress.push_back(done);
  });
  expect_returns_the_plan(plan, out);
  // Progress counts rounds; a GPU reports after each launch of many rounds,
  // so only that it never goes back and ends at the whole plan is common.
  ASSERT_FALSE(progress.empty());
  ASSERT_LE(progress.size(), plan.rounds.size());
  EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
  EXPECT_EQ(progress.back(), plan.rounds.size());
  EXPECT_GE(out.stats.launches, 1);
}

TEST_P(Contract, SerialAndConcurrentPlansOverTheSamePairsBothComplete) {
  const MeasurementPlan serial = plan_of(serial_rounds());
  const MeasurementPlan concurrent = plan_of(concurrent_rounds());
  if (units.size() >= 4) {
    EXPECT_LT(concurrent.rounds.size(), serial.rounds.size());
  }
  expect_returns_the_plan(serial, backend->measure(serial, nullptr));
  expect_returns_the_plan(concurrent, backend->measure(concurrent, nullptr));
}

TEST_P(Contract, ProbeLinesReturnsAFiniteValuePerUnitAndLine) {
  LineProbePlan plan;
  plan.units = units;
  plan.lines = {0, protocol::kLineBytes, 8 * protocol::kLineBytes};
  plan.chain = 8;
  const LineLatencyTable t = backend->probe_lines(plan, nullptr);
  EXPECT_EQ(t.units, plan.units);
  EXPECT_EQ(t.lines, plan.lines);
  ASSERT_EQ(t.ns.size(), units.size() * plan.lines.size());
  ASSERT_EQ(t.cycles.size(), t.ns.size());
  for (double ns : t.ns) EXPECT_TRUE(std::isfinite(ns) && ns > 0.0) << ns;
}

TEST_P(Contract, AUnitNotOnTheDeviceIsAUsageError) {
  const std::vector<int> all = backend->units();
  const UnitRef missing{0, all.back() + 1000};
  MeasurementPlan plan = plan_of({Round{{{units[0], missing, {0, 4}, 0}}}});
  plan.units.push_back(missing);
  EXPECT_THROW(backend->measure(plan, nullptr), UsageError);
  MeasurementPlan other_device = plan_of({Round{{{units[0], UnitRef{7, units[1].unit}, {0, 4}, 0}}}});
  other_device.units.push_back({7, units[1].unit});
  EXPECT_THROW(backend->measure(other_device, nullptr), UsageError);
}

TEST_P(Contract, CountsBeyondTheProtocolsRoundTripsAreAUsageError) {
  MeasurementPlan plan = plan_of(serial_rounds());
  plan.counts.iters = 1 << 20;
  plan.counts.samples = 1 << 12;
  ASSERT_GT(protocol::round_trips(plan.counts), protocol::kMaxRoundTrips);
  EXPECT_THROW(backend->measure(plan, nullptr), UsageError);
}

// The stop and progress rules of measure() (backend.hpp), whatever a
// backend's launches hold: the pairs that came back are planned pairs in
// plan order, each complete; `stopped` is set exactly when a planned pair is
// missing; progress never repeats or goes back, ends at the whole plan
// unless stopped, and every pair of the rounds it counted came back.
void expect_stop_and_progress_rules(const MeasurementPlan& plan, const Measurements& out,
                                    const std::vector<std::size_t>& progress) {
  std::vector<std::pair<const PlannedPair*, int>> planned;
  for (std::size_t r = 0; r < plan.rounds.size(); ++r)
    for (const PlannedPair& p : plan.rounds[r].pairs) planned.push_back({&p, static_cast<int>(r)});
  std::size_t next = 0;  // the planned pair a returned one may be, at the earliest
  for (const PairMeasurement& m : out.pairs) {
    while (next < planned.size() && planned[next].first->tag != m.tag) ++next;
    ASSERT_LT(next, planned.size()) << "pair " << m.tag << " is not planned, or out of plan order";
    EXPECT_EQ(m.round, planned[next].second) << m.tag;
    EXPECT_EQ(m.a, planned[next].first->a) << m.tag;
    EXPECT_FALSE(m.timed_out) << m.tag;
    EXPECT_EQ(m.rtt_ns.size(), static_cast<std::size_t>(plan.counts.samples)) << m.tag;
    ++next;
  }
  EXPECT_EQ(out.stopped, out.pairs.size() < planned.size());
  for (std::size_t i = 1; i < progress.size(); ++i) EXPECT_GT(progress[i], progress[i - 1]);
  if (!out.stopped && !plan.rounds.empty()) {
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back(), plan.rounds.size());
  }
  if (progress.empty()) return;
  EXPECT_LE(progress.back(), plan.rounds.size());
  if (out.stopped) EXPECT_LT(progress.back(), plan.rounds.size());
  std::size_t counted = 0;
  for (std::size_t r = 0; r < progress.back(); ++r) counted += plan.rounds[r].pairs.size();
  ASSERT_GE(out.pairs.size(), counted);
  for (std::size_t i = 0; i < counted; ++i) EXPECT_EQ(out.pairs[i].tag, planned[i].first->tag) << i;
}

// Measures `plan` with a progress callback that records every call (the
// backend calls it on the thread that called measure()).
Measurements measure_recording(Backend& backend, const MeasurementPlan& plan, std::vector<std::size_t>& progress) {
  return backend.measure(plan, [&](std::size_t done, std::size_t total) {
    EXPECT_EQ(total, plan.rounds.size());
    progress.push_back(done);
  });
}

TEST_P(Contract, AStopAfterTheFirstLaunchKeepsWhatFinishedAndStartsFewerLaunches) {
  MeasurementPlan plan = plan_of(serial_rounds());
  std::vector<std::size_t> whole_progress;
  const Measurements whole = measure_recording(*backend, plan, whole_progress);
  expect_stop_and_progress_rules(plan, whole, whole_progress);
  EXPECT_FALSE(whole.stopped);

  // Asked from the cpu backend's threads too: a flag, not the vector.
  std::atomic<bool> reported{false};
  plan.stop = [&reported] { return reported.load(); };
  std::vector<std::size_t> progress;
  const Measurements out = backend->measure(plan, [&](std::size_t done, std::size_t) {
    progress.push_back(done);
    reported = true;
  });
  expect_stop_and_progress_rules(plan, out, progress);
  // The launch after the first may have started before the first reported
  // (a GPU decodes one launch while the next runs); none after that.
  if (whole.stats.launches > 2) EXPECT_TRUE(out.stopped);
  if (out.stopped) EXPECT_LT(out.stats.launches, whole.stats.launches);
}

TEST_P(Contract, AStopFromTheStartLetsAtMostTheFirstLaunchRun) {
  MeasurementPlan plan = plan_of(serial_rounds());
  std::vector<std::size_t> whole_progress;
  const Measurements whole = measure_recording(*backend, plan, whole_progress);
  plan.stop = [] { return true; };
  std::vector<std::size_t> progress;
  const Measurements out = measure_recording(*backend, plan, progress);
  expect_stop_and_progress_rules(plan, out, progress);
  EXPECT_LE(out.stats.launches, 1);
  EXPECT_LE(progress.size(), 1u);
  if (whole.stats.launches > 1) EXPECT_TRUE(out.stopped);
}

INSTANTIATE_TEST_SUITE_P(Backends, Contract, ::testing::ValuesIn(factories()), factory_name);

// The HIP host logic hands the kernels the protocol: the plan's counts (the
// kernels walk protocol::segment over them), the planned flag words, and a
// result whose samples split between the directions by protocol::a_share.
TEST(HipFake, LaunchArgumentsFollowTheProtocol) {
  testing::FakeHipConfig cfg;
  cfg.a_ping_ticks = 100;  // a->b and b->a differ: the split shows in every sample
  cfg.b_ping_ticks = 300;
  auto fake = std::make_unique<testing::FakeHipRuntime>(cfg);
  testing::FakeHipRuntime& seen = *fake;
  auto backend = make_hip_backend_with_runtime(std::move(fake), DeviceSelection{});
  for (bool ordered : {false, true}) {
    MeasurementPlan plan;
    plan.units = {{0, 3}, {0, 4}};
    plan.rounds = {Round{{{{0, 3}, {0, 4}, {256, 384}, 1}}}};
    plan.counts = {101, 4, 7, ordered};
    const Measurements out = backend->measure(plan, nullptr);
    const auto& launch = seen.launches.back().args;
    EXPECT_EQ(launch.counts.iters, 101);
    EXPECT_EQ(launch.counts.samples, 4);
    EXPECT_EQ(launch.counts.warmup, 7);
    EXPECT_EQ(launch.counts.ordered, ordered);
    EXPECT_EQ(launch.first_offset_bytes, 256u);
    EXPECT_EQ(launch.second_offset_bytes, 384u);
    EXPECT_EQ(launch.probe, protocol::kCas);
    const int a_share = protocol::a_share(plan.counts);
    EXPECT_EQ(a_share, ordered ? 101 : 50);
    ASSERT_EQ(out.pairs.size(), 1u);
    for (double ns : out.pairs[0].rtt_ns)  // ticks at 100 MHz: 10 ns each
      EXPECT_DOUBLE_EQ(ns, (a_share * 100.0 + (101 - a_share) * 300.0) / 101 * 10.0);
  }
}

// The walk's directions. protocol::segment names the pinger of every
// segment: a for the cold round trip and the warm-up, then per sample a for
// the first a_share round trips and b for the rest (a for all of them when
// ordered). A backend that swapped a and b would still return every pair,
// finite and in plan order; what tells them apart is which unit pinged.

// The cpu backend's walk, on two CPUs: each segment must be pinged by the
// thread on the CPU the protocol names, whichever CPU is a.
TEST(CpuWalk, EachSegmentIsPingedOnTheCpuTheProtocolNames) {
  const std::vector<int> cpus = cpu::allowed_cpus();
  if (cpus.size() < 2) GTEST_SKIP() << "needs two CPUs this process may run on";
  for (bool ordered : {false, true})
    for (bool swapped : {false, true}) {
      const int a = swapped ? cpus[1] : cpus[0], b = swapped ? cpus[0] : cpus[1];
      SCOPED_TRACE(::testing::Message() << "a = cpu " << a << ", b = cpu " << b << (ordered ? ", ordered" : ""));
      std::atomic<std::uint32_t> first{0}, second{0};
      const protocol::Counts counts{9, 3, 4, ordered};
      const std::vector<cpu::PairTiming> t =
          cpu::run_cpu_round({{a, b, &first, &second}}, counts, Probe::Cas, 20000.0);
      ASSERT_EQ(t.size(), 1u);
      ASSERT_FALSE(t[0].timed_out);
      ASSERT_EQ(t[0].pinger_cpu.size(), static_cast<std::size_t>(protocol::segment_count(counts)));
      for (int i = 0; i < protocol::segment_count(counts); ++i)
        EXPECT_EQ(t[0].pinger_cpu[static_cast<std::size_t>(i)], protocol::segment(counts, i).a_pings ? a : b)
            << "segment " << i;
    }
}

// Over the fake runtimes, where every round trip costs the cycles of the unit
// that pings it (the fakes walk protocol::segment as the kernels do): a
// pair's cold round trip must cost a's, each sample the mean of its
// segments' pingers'. The fakes play the kernels; what this checks is the
// host side: which unit runs as a, and where each side's records are read.
struct TimedFactory {
  std::string name;
  std::function<std::unique_ptr<Backend>()> make;
  UnitRef a, b;          // two units whose round trips cost differently
  FlagSite flags;        // the pair's flags (and the device holding them)
  double a_cycles = 0;   // one round trip pinged by a
  double b_cycles = 0;   // one round trip pinged by b
};
void PrintTo(const TimedFactory& f, std::ostream* os) { *os << f.name; }

// Cycles per SM on GPU `ordinal`: every SM its own.
std::map<int, std::uint64_t> cycles_by_sm(int ordinal) {
  std::map<int, std::uint64_t> m;
  for (int sm = 0; sm < 8; ++sm) m[sm] = 300 + 100 * static_cast<std::uint64_t>(sm) + 1000 * ordinal;
  return m;
}

std::vector<TimedFactory> timed_factories() {
  std::vector<TimedFactory> f;
  f.push_back({"cuda_fake",
               [] {
                 testing::FakeCudaConfig c;
                 c.ping_cycles_by_sm = cycles_by_sm(0);
                 return cuda::make_cuda_backend_on(std::make_unique<testing::FakeCudaRuntime>(c));
               },
               {0, 2}, {0, 5}, {256, 260, 0}, 500, 800});
  // A pair across two GPUs: a's GPU records a's segments and the cold one,
  // b's GPU b's; the backend adds the two members' records up.
  f.push_back({"cuda_fake_two_gpus",
               [] {
                 std::vector<std::unique_ptr<cuda::CudaRuntime>> gpus;
                 for (int ordinal : {0, 1}) {
                   testing::FakeCudaConfig c;
                   c.ordinal = ordinal;
                   c.ping_cycles_by_sm = cycles_by_sm(ordinal);
                   gpus.push_back(std::make_unique<testing::FakeCudaRuntime>(c));
                 }
                 return cuda::make_cuda_backend_on(std::move(gpus));
               },
               {0, 2}, {1, 5}, {0, 4, 1}, 500, 1800});
  f.push_back({"hip_fake",
               [] {
                 testing::FakeHipConfig c;
                 for (int cu = 0; cu < c.cu_count; ++cu) c.ping_ticks_by_cu[cu] = 100 + 50 * static_cast<std::uint64_t>(cu);
                 return make_hip_backend_with_runtime(std::make_unique<testing::FakeHipRuntime>(c), DeviceSelection{});
               },
               // 250 and 300 wall ticks; shader cycles at 1.7 GHz / 100 MHz.
               {0, 3}, {0, 4}, {256, 384, 0}, 250 * 17, 300 * 17});
  return f;
}

// What the protocol says a pair's cycles are: the cold round trip a's, each
// sample the sum of its segments' round trips over iters.
struct Walked {
  double cold = 0;
  std::vector<double> samples;
};
Walked walked(const protocol::Counts& c, double a_cycles, double b_cycles) {
  Walked w{0, std::vector<double>(static_cast<std::size_t>(c.samples), 0.0)};
  for (int i = 0; i < protocol::segment_count(c); ++i) {
    const protocol::Segment seg = protocol::segment(c, i);
    const double cycles = seg.a_pings ? a_cycles : b_cycles;
    if (seg.sample == protocol::kColdSample) w.cold = cycles;
    if (seg.sample >= 0) w.samples[static_cast<std::size_t>(seg.sample)] += cycles * protocol::timed_round_trips(seg) / c.iters;
  }
  return w;
}

class Walk : public ::testing::TestWithParam<TimedFactory> {};

TEST_P(Walk, EachSegmentIsTimedAsPingedByTheUnitTheProtocolNames) {
  const TimedFactory& f = GetParam();
  const std::unique_ptr<Backend> backend = f.make();
  for (bool ordered : {false, true})
    for (bool swapped : {false, true}) {
      // The pair and the other way round: then b's unit is a.
      const UnitRef a = swapped ? f.b : f.a, b = swapped ? f.a : f.b;
      const double a_cycles = swapped ? f.b_cycles : f.a_cycles, b_cycles = swapped ? f.a_cycles : f.b_cycles;
      SCOPED_TRACE(::testing::Message() << "a = " << a.device << "." << a.unit << ", b = " << b.device << "."
                                        << b.unit << (ordered ? ", ordered" : ""));
      MeasurementPlan plan;
      plan.units = {f.a, f.b};
      plan.rounds = {Round{{{a, b, f.flags, 0}}}};
      plan.counts = {41, 3, 5, ordered};  // odd iters: a pings 20 of each sample's 41, b 21
      plan.timeout_ms = 20000.0;
      const Walked want = walked(plan.counts, a_cycles, b_cycles);
      ASSERT_NE(want.samples[0], walked(plan.counts, b_cycles, a_cycles).samples[0]) << "the directions must differ";

      const Measurements out = backend->measure(plan, nullptr);
      ASSERT_EQ(out.pairs.size(), 1u);
      const PairMeasurement& m = out.pairs[0];
      ASSERT_FALSE(m.timed_out);
      ASSERT_EQ(m.rtt_cycles.size(), want.samples.size());
      ASSERT_EQ(m.rtt_ns.size(), want.samples.size());
      for (std::size_t s = 0; s < want.samples.size(); ++s)
        EXPECT_NEAR(m.rtt_cycles[s], want.samples[s], 1e-9 * want.samples[s]) << "sample " << s;
      // The cold round trip comes in ns only: at the samples' ns per cycle.
      const double ns_per_cycle = m.rtt_ns[0] / m.rtt_cycles[0];
      EXPECT_NEAR(m.cold_rtt_ns / ns_per_cycle, want.cold, 1e-6 * want.cold);
    }
}

INSTANTIATE_TEST_SUITE_P(FakeRuntimes, Walk, ::testing::ValuesIn(timed_factories()),
                         [](const ::testing::TestParamInfo<TimedFactory>& info) { return info.param.name; });

}  // namespace
}  // namespace cumap
