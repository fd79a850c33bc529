// Runs on an NVIDIA GPU; skips with the reason elsewhere.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <set>

#include "backends/cuda/cuda_backend.hpp"
#include "cumap/error.hpp"
#include "cumap/matrix.hpp"
#include "gpu_available.hpp"

namespace cumap {
namespace {

std::unique_ptr<Backend> backend() {
  Options o;
  o.backend = BackendKind::Cuda;
  return make_cuda_backend(o);
}

MeasureSpec small_spec(Placement p) {
  MeasureSpec s;
  s.placement = p;
  s.iters = 50;
  s.samples = 3;
  s.warmup = 5;
  s.timeout_ms = 200;
  return s;
}

TEST(cuda_device, EverySmHoldsExactlyOneBlock) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto units = b->units();
  const DeviceInfo d = b->device();
  EXPECT_EQ(static_cast<int>(units.size()), d.unit_count);
  EXPECT_EQ(std::set<int>(units.begin(), units.end()).size(), units.size());
  EXPECT_GT(d.clock_hz, 1e8);
  EXPECT_LT(d.clock_hz, 5e9);
}

TEST(cuda_device, SmallMapHasPositiveFiniteLatencies) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto all = b->units();
  const Schedule sched = make_schedule({all[0], all[1], all[2], all[all.size() - 1]}, false);
  for (Placement p : {Placement::SameLine, Placement::SplitLine}) {
    const MeasureSpec spec = small_spec(p);
    const auto raw = b->measure(sched, spec, nullptr);
    ASSERT_EQ(raw.size(), sched.pairs.size());
    const LatencyMap map = summarize_measurements(raw, sched, spec);
    for (const PairStats& s : map.pairs) {
      EXPECT_FALSE(s.timed_out) << s.a << "-" << s.b;
      EXPECT_GT(s.rtt_ns.median, 50.0);  // a cross-SM round trip through L2 is far above 50 ns
      EXPECT_LT(s.rtt_ns.median, 20000.0);
      EXPECT_GT(s.cycles_median, 100.0);
      EXPECT_LE(s.rtt_ns.p05, s.rtt_ns.median);
    }
  }
}

TEST(cuda_device, EveryProbeCompletes) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto all = b->units();
  const Schedule sched = make_schedule({all[0], all[5]}, true);
  for (Probe probe : {Probe::Cas, Probe::Exch, Probe::AcqRel, Probe::Volatile}) {
    MeasureSpec spec = small_spec(Placement::SplitLine);
    spec.probe = probe;
    spec.ordered = true;
    for (const auto& m : b->measure(sched, spec, nullptr)) EXPECT_FALSE(m.timed_out) << to_string(probe);
  }
}

TEST(cuda_device, SilentPartnerTimesOutAndTheRunGoesOn) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto all = b->units();
  // all[1] never answers: its pairs must give up after the budget, be
  // reported, and hand the turn on; the other pair runs normally.
  const Schedule sched = make_schedule({all[0], all[1], all[2]}, false);
  MeasureSpec spec = small_spec(Placement::SameLine);
  spec.timeout_ms = 20;
  spec.silent_unit = all[1];
  const auto t0 = std::chrono::steady_clock::now();
  const auto raw = b->measure(sched, spec, nullptr);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(raw.size(), 3u);
  for (const auto& m : raw) EXPECT_EQ(m.timed_out, m.a == all[1] || m.b == all[1]) << m.a << "-" << m.b;
  EXPECT_LT(secs, 5.0);
  // The flags were reset after the timeouts: a normal run works.
  for (const auto& m : b->measure(sched, small_spec(Placement::SameLine), nullptr)) EXPECT_FALSE(m.timed_out);
}

TEST(cuda_device, UnknownSmIsBadInput) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  Schedule sched;
  sched.units = {b->units()[0], 1000};
  sched.pairs = {{b->units()[0], 1000}};
  EXPECT_THROW(b->measure(sched, small_spec(Placement::SameLine), nullptr), UsageError);
}

TEST(cuda_device, FlushRotateAndPersistRun) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto all = b->units();
  const Schedule sched = make_schedule({all[0], all[1], all[2]}, false);
  MeasureSpec spec = small_spec(Placement::SameLine);
  spec.flush_cache = true;
  spec.rotating_count = 3;
  spec.l2_persist = true;
  const auto raw = b->measure(sched, spec, nullptr);
  ASSERT_EQ(raw.size(), sched.pairs.size() * 3);
  std::set<int> copies;
  for (const auto& m : raw) {
    EXPECT_FALSE(m.timed_out);
    copies.insert(m.copy);
    EXPECT_TRUE(std::isfinite(m.cold_rtt_ns));
  }
  EXPECT_EQ(copies.size(), 3u);
}

TEST(cuda_device, LoadsThatBypassL1SeeAnotherSmsStore) {
  CUMAP_REQUIRE_GPU();
  auto b = backend();
  const auto all = b->units();
  const CoherenceReport r = b->check_coherence(all.front(), all.back(), 1.0);
  ASSERT_EQ(r.cases.size(), 12u);  // 3 stores x 4 loads
  for (const auto& c : r.cases) {
    EXPECT_FALSE(c.handshake_timed_out) << c.store << "/" << c.load;
    // ld.cg and ld.volatile are served by L2, which is coherent: they must see it.
    if (!c.load_caches_in_l1) EXPECT_TRUE(c.saw_new_value) << c.store << "/" << c.load;
    EXPECT_GT(c.primed_reload_cycles, 0.0);
  }
}

TEST(cuda_device, TopologyCoversEverySm) {
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
