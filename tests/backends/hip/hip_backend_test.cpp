#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <utility>

#include "backends/hip/hip_backend.hpp"
#include "cumap/error.hpp"
#include "fake_hip_runtime.hpp"
#include "hip_plans.hpp"

namespace cumap {
namespace {

using testing::FakeHipConfig;
using testing::FakeHipRuntime;
using testing::serial_plan;
using testing::concurrent_plan;

// Builds the backend over a fake and keeps a pointer to the fake for checks.
struct Rig {
  FakeHipRuntime* fake = nullptr;
  std::unique_ptr<Backend> backend;
};

Rig make_rig(FakeHipConfig cfg, DeviceSelection selection = {}) {
  auto fake = std::make_unique<FakeHipRuntime>(std::move(cfg));
  Rig rig;
  rig.fake = fake.get();
  rig.backend = make_hip_backend_with_runtime(std::move(fake), selection);
  return rig;
}

MeasurementPlan quick(MeasurementPlan plan) {
  plan.counts.iters = 10;
  plan.counts.samples = 1;
  plan.counts.warmup = 2;
  return plan;
}

TEST(Backend, NoDeviceIsAUsageError) {
  FakeHipConfig cfg;
  cfg.devices = 0;
  try {
    make_rig(cfg);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "no AMD GPU found (HIP runtime reports 0 devices)");
  }
}

TEST(Backend, WgpUnitsOnGfx9AreAUsageError) {
  DeviceSelection s;
  s.hip_unit = HipUnit::Wgp;
  EXPECT_THROW(make_rig(FakeHipConfig{}, s), UsageError);
}

TEST(Backend, DescribesTheDevice) {
  DeviceSelection s;
  s.hip_unit = HipUnit::Wgp;
  FakeHipConfig cfg;
  cfg.arch = "gfx1030";
  cfg.cu_count = 80;
  Rig rig = make_rig(cfg, s);
  const DeviceInfo d = rig.backend->device();
  EXPECT_EQ(d.backend, "hip");
  EXPECT_EQ(d.unit_name, "WGP");
  EXPECT_EQ(d.unit_count, 40);
  EXPECT_EQ(rig.backend->units().size(), 40u);
  EXPECT_EQ(d.extra["gcn_arch_name"], "gfx1030");
  EXPECT_EQ(d.extra["hw_id_register"], "HW_ID1");
  EXPECT_EQ(d.extra["max_streams"], 16);
  EXPECT_EQ(rig.fake->streams_created, 0u) << "describing the device launches nothing";
}

TEST(Backend, CapabilitiesFollowTheStreamBudget) {
  Rig rig = make_rig(FakeHipConfig{});
  EXPECT_EQ(rig.backend->capabilities().max_pairs_per_round, 12);  // 24 queues on Instinct
  EXPECT_EQ(rig.backend->capabilities().default_lines_per_class, 32);
  DeviceSelection s;
  s.max_streams = 6;
  Rig small = make_rig(FakeHipConfig{}, s);
  EXPECT_EQ(small.backend->capabilities().max_pairs_per_round, 3);
  s.max_streams = 1;
  EXPECT_THROW(make_rig(FakeHipConfig{}, s), UsageError);
}

TEST(Backend, FullSerialMapOn64UnitsWithEightQueues) {
  FakeHipConfig cfg;
  cfg.queue_limit = 8;
  Rig rig = make_rig(cfg);
  const MeasurementPlan plan = quick(serial_plan(rig.backend->units(), false));
  ASSERT_EQ(plan.rounds.size(), 2016u);
  std::size_t last_done = 0;
  const auto out = rig.backend->measure(plan, [&](std::size_t done, std::size_t) { last_done = done; });
  ASSERT_EQ(out.pairs.size(), 2016u);
  EXPECT_EQ(last_done, 2016u);
  std::set<std::pair<int, int>> measured;
  for (const PairMeasurement& m : out.pairs) {
    EXPECT_TRUE(measured.insert({m.a.unit, m.b.unit}).second) << m.a.unit << "," << m.b.unit << " measured twice";
    EXPECT_EQ(m.rtt_ns.size(), 1u);
  }
  EXPECT_EQ(rig.fake->launches.size(), 2016u);  // one launch a pair
  EXPECT_LE(rig.fake->max_live_streams, 8u);
  EXPECT_EQ(out.stats.extra["max_cu_masked_streams"], 8);
  EXPECT_TRUE(out.stats.extra["hw_id_warnings"].empty());
}

TEST(Backend, ConcurrentRoundsLaunchAsManyPairsAsThePoolHolds) {
  Rig rig = make_rig(FakeHipConfig{});
  const MeasurementPlan plan = quick(concurrent_plan(64));
  const auto out = rig.backend->measure(plan, {});
  ASSERT_EQ(out.pairs.size(), 2016u);
  EXPECT_EQ(rig.fake->max_pairs_per_call, 12u);  // 24 streams: 12 pairs at once
  EXPECT_LE(rig.fake->max_live_streams, 24u);
  EXPECT_EQ(rig.fake->run_pairs_calls, 63u * 3u);  // 32 pairs a round: waves of 12, 12, 8
  std::set<std::pair<int, int>> measured;
  for (const PairMeasurement& m : out.pairs) measured.insert({std::min(m.a.unit, m.b.unit), std::max(m.a.unit, m.b.unit)});
  EXPECT_EQ(measured.size(), 2016u);
  EXPECT_EQ(out.stats.launches, 63 * 3);
}

// The directions differ (a->b 100 ticks a round trip, b->a 200), so a cell
// that held one direction only would show it.
FakeHipConfig asymmetric_config() {
  FakeHipConfig cfg;
  cfg.a_ping_ticks = 100;
  cfg.b_ping_ticks = 200;
  cfg.a_ping_cycles = 1700;
  cfg.b_ping_cycles = 3400;
  cfg.cold_ticks = 400;
  return cfg;
}

TEST(Backend, UnorderedSamplesHoldBothDirectionsOnThePlannedFlags) {
  Rig rig = make_rig(asymmetric_config());
  MeasurementPlan plan = serial_plan({2, 5}, false, FlagSite{512, 640});
  plan.counts.samples = 5;
  plan.counts.iters = 100;
  plan.counts.warmup = 2;
  plan.timeout_ms = 5.0;
  plan.arena.offset_bytes = 64;
  const auto out = rig.backend->measure(plan, {});
  ASSERT_EQ(out.pairs.size(), 1u);
  ASSERT_EQ(out.pairs[0].rtt_ns.size(), 5u);
  // Every sample: 50 round trips a->b and 50 b->a, (50*100 + 50*200) / 100 = 150 ticks.
  for (double ns : out.pairs[0].rtt_ns) EXPECT_DOUBLE_EQ(ns, 1500.0);
  ASSERT_EQ(out.pairs[0].rtt_cycles.size(), 5u);
  for (double c : out.pairs[0].rtt_cycles) EXPECT_DOUBLE_EQ(c, 2550.0);
  EXPECT_DOUBLE_EQ(out.pairs[0].cold_rtt_ns, 4000.0);
  EXPECT_NEAR(out.stats.clock_hz, 1.7e9, 1e3);  // cycles over ns of the samples

  const auto& l = rig.fake->launches;
  ASSERT_EQ(l.size(), 1u);  // one launch per pair, both directions inside
  EXPECT_EQ(std::make_pair(l[0].a_cu, l[0].b_cu), std::make_pair(2, 5));
  EXPECT_EQ(l[0].args.counts.samples, 5);
  EXPECT_EQ(l[0].args.counts.iters, 100);
  EXPECT_EQ(protocol::a_share(l[0].args.counts), 50);
  EXPECT_EQ(l[0].args.first_offset_bytes, 64u + 512u);  // --flag-offset shifts the arena
  EXPECT_EQ(l[0].args.second_offset_bytes, 64u + 640u);
  EXPECT_EQ(l[0].args.wait_budget_ticks, 500001u);  // 5 ms at 100 MHz
}

TEST(Backend, WithOddItersBPingsTheExtraRoundTrip) {
  Rig rig = make_rig(asymmetric_config());
  MeasurementPlan plan = serial_plan({2, 5}, false);
  plan.counts.samples = 5;
  plan.counts.iters = 101;
  const auto out = rig.backend->measure(plan, {});
  ASSERT_EQ(out.pairs[0].rtt_ns.size(), 5u);
  // (50*100 + 51*200) / 101 ticks at 100 MHz.
  for (double ns : out.pairs[0].rtt_ns) EXPECT_DOUBLE_EQ(ns, (50.0 * 100 + 51.0 * 200) / 101 * 10.0);
}

TEST(Backend, OrderedPairsArePingedByAAlone) {
  Rig rig = make_rig(asymmetric_config());
  MeasurementPlan plan = serial_plan({2, 5}, true);
  plan.counts.samples = 5;
  plan.counts.iters = 100;
  const auto out = rig.backend->measure(plan, {});
  ASSERT_EQ(out.pairs.size(), 2u);
  const auto& l = rig.fake->launches;
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(std::make_pair(l[1].a_cu, l[1].b_cu), std::make_pair(out.pairs[1].a.unit, out.pairs[1].b.unit));
  EXPECT_EQ(out.pairs[1].round, 1);
  // The fake charges 100 ticks whenever a pings: each cell is its own a->b only.
  for (const auto& m : out.pairs)
    for (double ns : m.rtt_ns) EXPECT_DOUBLE_EQ(ns, 1000.0);
}

TEST(Backend, CacheFlushesRunBeforeEveryWave) {
  Rig rig = make_rig(FakeHipConfig{});
  MeasurementPlan plan = quick(serial_plan({0, 1, 2}, true));
  plan.flush_cache = true;
  rig.backend->measure(plan, {});
  EXPECT_EQ(rig.fake->icache_flushes, 6);
  EXPECT_EQ(rig.fake->l2_flushes, 6);
}

TEST(Backend, TheFlagArenaIsKeptAcrossCallsAndMovedOnlyForAnotherOne) {
  Rig rig = make_rig(FakeHipConfig{});
  MeasurementPlan plan = quick(serial_plan({0, 1}, false));
  rig.backend->measure(plan, {});
  rig.backend->measure(plan, {});
  plan.arena.offset_bytes = 128;
  rig.backend->measure(plan, {});
  const auto& l = rig.fake->launches;
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[0].args.flags, l[1].args.flags);
  EXPECT_NE(l[1].args.flags, l[2].args.flags);
}

// A pair that times out with both kernels started looks time-sliced: it is
// measured once more (with fewer queues), then reported as timed out.
TEST(Backend, TimedOutPairsAreRetriedOnceMarkedAndTheRunGoesOn) {
  FakeHipConfig cfg;
  cfg.timeout_cu = 1;
  Rig rig = make_rig(cfg);
  MeasurementPlan plan = quick(serial_plan({0, 1, 2}, false));
  plan.counts.samples = 4;
  const auto out = rig.backend->measure(plan, {});
  ASSERT_EQ(out.pairs.size(), 3u);
  EXPECT_TRUE(out.pairs[0].timed_out);  // (0,1)
  EXPECT_EQ(out.pairs[0].rtt_ns.size(), 1u);
  EXPECT_FALSE(out.pairs[1].timed_out);  // (0,2)
  EXPECT_EQ(out.pairs[1].rtt_ns.size(), 4u);
  EXPECT_TRUE(out.pairs[2].timed_out);  // (1,2)
  EXPECT_EQ(rig.fake->launches.size(), 5u);
  EXPECT_EQ(out.stats.extra["remeasured_pairs"], 2);
}

TEST(Backend, HwIdMismatchesAreReportedNotHidden) {
  FakeHipConfig cfg;
  cfg.alias_cu = {{5, 9}};
  cfg.drifting_cu = 3;
  Rig rig = make_rig(cfg);
  const auto out = rig.backend->measure(quick(serial_plan({3, 5, 9, 12}, false)), {});
  const auto warnings = out.stats.extra["hw_id_warnings"];
  bool overlap = false;
  int moved = 0;
  for (const auto& w : warnings) {
    const std::string s = w.get<std::string>();
    overlap = overlap || s.find("CUs 5 and 9 both ran on") != std::string::npos ||
              s.find("CUs 9 and 5 both ran on") != std::string::npos;
    moved += s.find("CU 3 ran on") != std::string::npos ? 1 : 0;
  }
  EXPECT_TRUE(overlap) << warnings.dump();
  EXPECT_EQ(moved, 1) << warnings.dump();
}

TEST(Backend, TopologyComesFromHwIds) {
  FakeHipConfig cfg;
  cfg.cu_count = 8;
  cfg.shader_engines = 4;
  Rig rig = make_rig(cfg);
  const Topology t = rig.backend->topology();
  EXPECT_EQ(t.source, "hw_id");
  ASSERT_EQ(t.groups.size(), 4u);
  EXPECT_EQ(t.groups[1].name, "SE1/SA0");
  EXPECT_EQ(t.groups[1].units, (std::vector<int>{1, 5}));
}

TEST(Backend, StreamCreationFailureSurfacesAsRuntimeFailure) {
  FakeHipConfig cfg;
  cfg.rejected_cu = 2;
  Rig rig = make_rig(cfg);
  try {
    rig.backend->measure(quick(serial_plan({0, 1, 2}, false)), {});
    FAIL() << "expected RuntimeFailure";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("hipExtStreamCreateWithCUMask failed for CU 2 (mask "), std::string::npos)
        << e.what();
  }
}

TEST(Backend, ProbeLinesSeesTheFakesTwoHomeClasses) {
  Rig rig = make_rig(FakeHipConfig{});
  LineProbePlan plan;
  plan.units = {{0, 0}, {0, 1}};
  plan.lines = {0, 128, 256};
  plan.chain = 10;
  plan.repeats = 3;
  const LineLatencyTable t = rig.backend->probe_lines(plan, {});
  ASSERT_EQ(t.ns.size(), 6u);
  // Unit 0 is near even lines (30 ticks = 300 ns an atomic), far from odd ones (500 ns);
  // the median of 300, 301, 302 ticks a chain is 301.
  EXPECT_DOUBLE_EQ(t.ns_at(0, 0), 3010.0 / 10);
  EXPECT_DOUBLE_EQ(t.ns_at(0, 1), 5010.0 / 10);
  EXPECT_DOUBLE_EQ(t.ns_at(1, 1), 3010.0 / 10);
  EXPECT_DOUBLE_EQ(t.cycles[0], 301.0 * 17 / 10);
}

// The placement library's classify: lines of a program's own hipMalloc
// memory are probed where they are; memory whose lines have no fixed home,
// or that the runtime does not know, is refused saying why.
TEST(Backend, ProbeLinesOfAProgramsOwnMemoryWhereItIs) {
  FakeHipConfig cfg;
  cfg.program_memory = {{0x7f0000000080, 4096}};  // starts on an odd line
  cfg.managed = {{0x7e0000000000, 4096}};
  cfg.host = {{0x7d0000000000, 4096}};
  Rig rig = make_rig(cfg);
  LineProbePlan plan;
  plan.units = {{0, 0}};
  plan.lines = {0, 128};
  plan.chain = 10;
  plan.repeats = 3;
  plan.memory = 0x7f0000000080;
  plan.arena.bytes = 4096;
  const LineLatencyTable t = rig.backend->probe_lines(plan, {});
  EXPECT_DOUBLE_EQ(t.ns_at(0, 0), 5010.0 / 10) << "the program's first line is odd: far from CU 0";
  EXPECT_DOUBLE_EQ(t.ns_at(0, 1), 3010.0 / 10);
  EXPECT_EQ(rig.fake->allocations, 0u) << "no flag arena for a program's memory";

  const auto refusal = [&](std::uintptr_t memory) {
    plan.memory = memory;
    try {
      (void)rig.backend->probe_lines(plan, {});
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no refusal");
  };
  EXPECT_NE(refusal(0x7e0000000000).find("managed memory"), std::string::npos);
  EXPECT_NE(refusal(0x7e0000000000).find("hipMalloc"), std::string::npos);
  EXPECT_NE(refusal(0x7d0000000000).find("host memory"), std::string::npos);
  EXPECT_NE(refusal(0x7c0000000000).find("no allocation the HIP runtime knows of"), std::string::npos);
}

TEST(Backend, GpuFeaturesItLacksAreUsageErrors) {
  Rig rig = make_rig(FakeHipConfig{});
  MeasurementPlan plan = quick(serial_plan({0, 1}, false));
  plan.l2_persist = true;
  EXPECT_THROW(rig.backend->measure(plan, {}), UsageError);
  plan.l2_persist = false;
  plan.path = Path::Dsm;
  EXPECT_THROW(rig.backend->measure(plan, {}), UsageError);
  EXPECT_TRUE(rig.fake->launches.empty());
}

}  // namespace
}  // namespace cumap
