// Runs on an NVIDIA GPU; skips with the reason elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "backends/cuda/cuda_runtime_real.hpp"
#include "core/stats.hpp"
#include "cumap/error.hpp"
#include "gpu_available.hpp"

namespace cumap {
namespace {

std::unique_ptr<Backend> backend() { return make_cuda_backend(DeviceSelection{BackendKind::Cuda, 0, HipUnit::Cu}); }

// Pairs as rounds, each unordered pair on its own line (the same line
// whichever plan it is in), same-line flags.
MeasurementPlan plan_of(const std::vector<std::vector<std::pair<int, int>>>& rounds, const std::vector<int>& units) {
  MeasurementPlan plan;
  for (int u : units) plan.units.push_back({0, u});
  for (const auto& r : rounds) {
    Round round;
    for (auto [a, b] : r) {
      const int lo = std::min(a, b), hi = std::max(a, b);
      const std::uint64_t line = static_cast<std::uint64_t>(lo) * 256 + static_cast<std::uint64_t>(hi);
      PlannedPair p;
      p.a = {0, a};
      p.b = {0, b};
      p.flags = {line * protocol::kLineBytes, line * protocol::kLineBytes + protocol::kSameLineGapBytes};
      round.pairs.push_back(p);
    }
    plan.rounds.push_back(round);
  }
  plan.arena.bytes = 256 * 256 * protocol::kLineBytes;
  plan.counts = {50, 3, 5, false};
  plan.timeout_ms = 200;
  return plan;
}

MeasurementPlan serial(const std::vector<int>& u) {
  std::vector<std::vector<std::pair<int, int>>> rounds;
  for (std::size_t i = 0; i < u.size(); ++i)
    for (std::size_t j = i + 1; j < u.size(); ++j) rounds.push_back({{u[i], u[j]}});
  return plan_of(rounds, u);
}

// The circle method: N-1 rounds of N/2 disjoint pairs (N even).
MeasurementPlan concurrent(const std::vector<int>& u) {
  const std::size_t n = u.size();
  std::vector<std::vector<std::pair<int, int>>> rounds;
  for (std::size_t r = 0; r + 1 < n; ++r) {
    std::vector<std::pair<int, int>> round{{u[n - 1], u[r]}};
    for (std::size_t k = 1; k < n / 2; ++k) round.emplace_back(u[(r + k) % (n - 1)], u[(r + n - 1 - k) % (n - 1)]);
    rounds.push_back(round);
  }
  return plan_of(rounds, u);
}

std::vector<int> first_units(const Backend& b, std::size_t n) {
  auto all = b.units();
  all.resize(std::min(all.size(), n));
  return all;
}

TEST(Device, EverySmHoldsExactlyOneBlock) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto units = b->units();
  const DeviceInfo d = b->device();
  EXPECT_EQ(static_cast<int>(units.size()), d.unit_count);
  EXPECT_EQ(std::set<int>(units.begin(), units.end()).size(), units.size());
  EXPECT_GT(d.clock_hz, 1e8);
  EXPECT_LT(d.clock_hz, 5e9);
  EXPECT_EQ(b->capabilities().max_pairs_per_round, d.unit_count / 2);
}

TEST(Device, SerialAndConcurrentPlansCompleteAndAgree) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto u = first_units(*b, 8);
  ASSERT_EQ(u.size(), 8u);
  const Measurements s = b->measure(serial(u), nullptr);
  const Measurements c = b->measure(concurrent(u), nullptr);
  ASSERT_EQ(s.pairs.size(), 28u);
  ASSERT_EQ(c.pairs.size(), 28u);
  EXPECT_GT(s.stats.clock_hz, 1e8);
  EXPECT_GT(s.stats.device_seconds, 0.0);
  EXPECT_GE(s.stats.launches, 1);
  std::map<std::pair<int, int>, double> serial_ns;
  for (const PairMeasurement& m : s.pairs) {
    ASSERT_FALSE(m.timed_out) << m.a.unit << "-" << m.b.unit;
    ASSERT_EQ(m.rtt_ns.size(), 3u);
    EXPECT_GT(median(m.rtt_ns), 50.0);  // a cross-SM round trip through L2 is far above 50 ns
    EXPECT_LT(median(m.rtt_ns), 20000.0);
    EXPECT_GT(median(m.rtt_cycles), 100.0);
    EXPECT_TRUE(std::isfinite(m.cold_rtt_ns));
    serial_ns[{std::min(m.a.unit, m.b.unit), std::max(m.a.unit, m.b.unit)}] = median(m.rtt_ns);
  }
  std::vector<double> rel;
  for (const PairMeasurement& m : c.pairs) {
    ASSERT_FALSE(m.timed_out) << m.a.unit << "-" << m.b.unit;
    const double x = serial_ns.at({std::min(m.a.unit, m.b.unit), std::max(m.a.unit, m.b.unit)});
    rel.push_back(std::abs(median(m.rtt_ns) - x) / x);
  }
  // Same pairs on the same lines: four pairs at once may load the L2 a little, not change the map.
  EXPECT_LT(median(rel), 0.10);
}

TEST(Device, EveryProbeCompletes) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto u = first_units(*b, 6);
  MeasurementPlan plan = plan_of({{{u[0], u[5]}, {u[1], u[2]}}}, u);
  plan.counts.ordered = true;
  for (Probe probe : {Probe::Cas, Probe::Exch, Probe::AcqRel, Probe::Volatile}) {
    plan.probe = probe;
    for (const auto& m : b->measure(plan, nullptr).pairs) EXPECT_FALSE(m.timed_out) << to_string(probe);
  }
}

TEST(Device, SilentPartnerTimesOutAndTheRunGoesOn) {
  CUMAP_REQUIRE_GPU();
  const int silent = backend()->units()[1];
  // A backend whose SM `silent` takes its turns but never answers (test hook).
  auto b = cuda::make_cuda_backend_on(cuda::make_real_cuda_runtime(0), cuda::CudaTestHooks{silent});
  const auto u = first_units(*b, 3);
  MeasurementPlan plan = serial(u);
  plan.timeout_ms = 20;
  const auto t0 = std::chrono::steady_clock::now();
  const Measurements m = b->measure(plan, nullptr);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(m.pairs.size(), 3u);
  for (const auto& p : m.pairs)
    EXPECT_EQ(p.timed_out, p.a.unit == silent || p.b.unit == silent) << p.a.unit << "-" << p.b.unit;
  EXPECT_LT(secs, 5.0);
  // The flags were reset after the timeouts: a normal backend on the same memory works.
  for (const auto& p : backend()->measure(serial(u), nullptr).pairs) EXPECT_FALSE(p.timed_out);
}

TEST(Device, UnknownSmIsBadInput) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  MeasurementPlan plan = plan_of({{{b->units()[0], 1000}}}, {b->units()[0], 1000});
  EXPECT_THROW(b->measure(plan, nullptr), UsageError);
}

TEST(Device, FlushAndPersistRunBetweenRounds) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto u = first_units(*b, 4);
  MeasurementPlan plan = concurrent(u);
  plan.flush_cache = true;
  plan.l2_persist = true;
  const Measurements m = b->measure(plan, nullptr);
  ASSERT_EQ(m.pairs.size(), 6u);
  for (const auto& p : m.pairs) {
    EXPECT_FALSE(p.timed_out);
    EXPECT_TRUE(std::isfinite(p.cold_rtt_ns));
  }
  EXPECT_GT(m.stats.extra.value("l2_persisting_window_bytes", 0), 0);
}

TEST(Device, ProbeLinesReturnsAFullTable) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  LineProbePlan plan;
  for (int u : first_units(*b, 4)) plan.units.push_back({0, u});
  for (std::uint64_t l = 0; l < 16; ++l) plan.lines.push_back(l * 4096);
  plan.arena.bytes = 16 * 4096;
  std::size_t last = 0;
  const LineLatencyTable t = b->probe_lines(plan, [&](std::size_t done, std::size_t) { last = done; });
  EXPECT_EQ(last, 4u);
  ASSERT_EQ(t.cycles.size(), 4u * 16u);
  for (double c : t.cycles) {
    // An L2 atomic round trip: hundreds of cycles (H100: ~310 near, ~510 far).
    EXPECT_GT(c, 100.0);
    EXPECT_LT(c, 5000.0);
  }
  for (double ns : t.ns) EXPECT_TRUE(std::isfinite(ns));
}

TEST(Device, LoadsThatBypassL1SeeAnotherSmsStore) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto all = b->units();
  const CoherenceReport r = b->check_coherence(all.front(), all.back(), 1.0);
  ASSERT_EQ(r.cases.size(), 12u);  // 3 stores x 4 loads
  for (const auto& c : r.cases) {
    EXPECT_FALSE(c.handshake_timed_out) << c.store << "/" << c.load;
    // ld.cg and ld.volatile are served by L2, which is coherent: they must see it.
    if (!c.load_caches_in_l1) {
      EXPECT_TRUE(c.saw_new_value) << c.store << "/" << c.load;
    }
    EXPECT_GT(c.primed_reload_cycles, 0.0);
  }
}

TEST(Device, TopologyCoversEverySm) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const Topology t = b->topology();
  std::set<int> seen;
  for (const auto& g : t.groups)
    for (int u : g.units) EXPECT_TRUE(seen.insert(u).second) << "SM " << u << " in two groups";
  const auto all = b->units();
  EXPECT_EQ(seen, std::set<int>(all.begin(), all.end()));
}

}  // namespace
}  // namespace cumap
