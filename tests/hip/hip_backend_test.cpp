#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "backends/hip/hip_backend.hpp"
#include "cumap/error.hpp"
#include "cumap/schedule.hpp"
#include "fake_hip_runtime.hpp"

namespace cumap {
namespace {

using testing::FakeHipConfig;
using testing::FakeHipRuntime;

// Builds the backend over a fake and keeps a pointer to the fake for checks.
struct Rig {
  FakeHipRuntime* fake = nullptr;
  std::unique_ptr<Backend> backend;
};

Rig make_rig(FakeHipConfig cfg, Options options = {}) {
  auto fake = std::make_unique<FakeHipRuntime>(std::move(cfg));
  Rig rig;
  rig.fake = fake.get();
  rig.backend = make_hip_backend_with_runtime(std::move(fake), options);
  return rig;
}

MeasureSpec quick_spec() {
  MeasureSpec s;
  s.iters = 10;
  s.samples = 1;
  s.warmup = 2;
  return s;
}

TEST(hip_Backend, NoDeviceIsAUsageError) {
  FakeHipConfig cfg;
  cfg.devices = 0;
  try {
    make_rig(cfg);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "no AMD GPU found (HIP runtime reports 0 devices)");
  }
}

TEST(hip_Backend, WgpUnitsOnGfx9AreAUsageError) {
  Options o;
  o.hip_unit = HipUnit::Wgp;
  EXPECT_THROW(make_rig(FakeHipConfig{}, o), UsageError);
}

TEST(hip_Backend, DescribesTheDevice) {
  Options o;
  o.hip_unit = HipUnit::Wgp;
  FakeHipConfig cfg;
  cfg.arch = "gfx1030";
  cfg.cu_count = 80;
  Rig rig = make_rig(cfg, o);
  const DeviceInfo d = rig.backend->device();
  EXPECT_EQ(d.backend, "hip");
  EXPECT_EQ(d.unit_name, "WGP");
  EXPECT_EQ(d.unit_count, 40);
  EXPECT_EQ(rig.backend->units().size(), 40u);
  EXPECT_EQ(d.extra["gcn_arch_name"], "gfx1030");
  EXPECT_EQ(d.extra["hw_id_register"], "HW_ID1");
  EXPECT_TRUE(d.extra["max_cu_masked_streams"].is_null());
}

TEST(hip_Backend, FullMapOn64UnitsWithEightQueues) {
  FakeHipConfig cfg;
  cfg.queue_limit = 8;
  Rig rig = make_rig(cfg);
  const Schedule schedule = make_schedule(rig.backend->units(), /*ordered=*/false);
  ASSERT_EQ(schedule.pairs.size(), 2016u);
  std::size_t last_done = 0;
  const auto out = rig.backend->measure(schedule, quick_spec(),
                                        [&](std::size_t done, std::size_t) { last_done = done; });
  ASSERT_EQ(out.size(), 2016u);
  EXPECT_EQ(last_done, 2016u);
  std::set<std::pair<int, int>> measured;
  for (const PairMeasurement& m : out) {
    EXPECT_TRUE(measured.insert({m.a, m.b}).second) << m.a << "," << m.b << " measured twice";
    EXPECT_EQ(m.rtt_ns.size(), 1u);
  }
  for (const Pair& p : schedule.pairs) EXPECT_TRUE(measured.count({p.a, p.b}));
  EXPECT_EQ(rig.fake->launches.size(), 2016u);  // one launch a pair
  EXPECT_LE(rig.fake->max_live_streams, 8u);
  const DeviceInfo d = rig.backend->device();
  EXPECT_EQ(d.extra["max_cu_masked_streams"], 8);
  EXPECT_TRUE(d.extra["hw_id_warnings"].empty());
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

TEST(hip_Backend, UnorderedSamplesHoldBothDirections) {
  Rig rig = make_rig(asymmetric_config());
  MeasureSpec spec = quick_spec();
  spec.samples = 5;
  spec.iters = 100;
  spec.placement = Placement::SplitLine;
  spec.rotating_count = 2;
  spec.timeout_ms = 5.0;
  const Schedule schedule{{2, 5}, {{2, 5}}, false};
  const auto out = rig.backend->measure(schedule, spec, {});
  ASSERT_EQ(out.size(), 2u);  // one per copy
  EXPECT_EQ(out[0].copy, 0);
  EXPECT_EQ(out[1].copy, 1);
  ASSERT_EQ(out[0].rtt_ns.size(), 5u);
  // Every sample: 50 round trips a->b and 50 b->a, (50*100 + 50*200) / 100 = 150 ticks.
  for (double ns : out[0].rtt_ns) EXPECT_DOUBLE_EQ(ns, 1500.0);
  ASSERT_EQ(out[0].rtt_cycles.size(), 5u);
  for (double c : out[0].rtt_cycles) EXPECT_DOUBLE_EQ(c, 2550.0);
  EXPECT_DOUBLE_EQ(out[0].cold_rtt_ns, 4000.0);

  const auto& l = rig.fake->launches;
  ASSERT_EQ(l.size(), 2u);  // one launch per pair and copy, both directions inside
  EXPECT_EQ(std::make_pair(l[0].a_cu, l[0].b_cu), std::make_pair(2, 5));
  EXPECT_EQ(l[0].args.samples, 5);
  EXPECT_EQ(l[0].args.iters, 100);
  EXPECT_EQ(l[0].args.a_share, 50);
  EXPECT_EQ(l[0].args.offset_words, 1024);  // split line: a page apart
  EXPECT_EQ(l[0].args.flags_offset_bytes, 0u);
  EXPECT_EQ(l[1].args.flags_offset_bytes, 8192u);  // copy 1 on pages of its own
  EXPECT_EQ(l[0].args.wait_budget_ticks, 500001u);  // 5 ms at 100 MHz
  EXPECT_EQ(l[0].args.warmup, 2);
}

TEST(hip_Backend, WithOddItersBPingsTheExtraRoundTrip) {
  Rig rig = make_rig(asymmetric_config());
  MeasureSpec spec = quick_spec();
  spec.samples = 5;
  spec.iters = 101;
  const auto out = rig.backend->measure(Schedule{{2, 5}, {{2, 5}}, false}, spec, {});
  ASSERT_EQ(rig.fake->launches.size(), 1u);
  EXPECT_EQ(rig.fake->launches[0].args.a_share, 50);
  ASSERT_EQ(out[0].rtt_ns.size(), 5u);
  // (50*100 + 51*200) / 101 ticks at 100 MHz.
  for (double ns : out[0].rtt_ns) EXPECT_DOUBLE_EQ(ns, (50.0 * 100 + 51.0 * 200) / 101 * 10.0);
}

TEST(hip_Backend, OrderedPairsArePingedByAAlone) {
  Rig rig = make_rig(asymmetric_config());
  MeasureSpec spec = quick_spec();
  spec.samples = 5;
  spec.iters = 100;
  const auto out = rig.backend->measure(make_schedule({2, 5}, /*ordered=*/true), spec, {});
  ASSERT_EQ(out.size(), 2u);
  const auto& l = rig.fake->launches;
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(std::make_pair(l[0].a_cu, l[0].b_cu), std::make_pair(out[0].a, out[0].b));
  EXPECT_EQ(std::make_pair(l[1].a_cu, l[1].b_cu), std::make_pair(out[1].a, out[1].b));
  for (const auto& launch : l) EXPECT_EQ(launch.args.a_share, 100);
  // The fake charges 100 ticks whenever a pings: each cell is its own a->b only.
  EXPECT_NE(out[0].a, out[1].a);
  for (const auto& m : out) {
    ASSERT_EQ(m.rtt_ns.size(), 5u);
    for (double ns : m.rtt_ns) EXPECT_DOUBLE_EQ(ns, 1000.0);
  }
}

TEST(hip_Backend, SameLineFlagsAreAdjacentWordsAndCacheFlushesRunPerPair) {
  Rig rig = make_rig(FakeHipConfig{});
  MeasureSpec spec = quick_spec();
  spec.flush_cache = true;
  const Schedule schedule = make_schedule({0, 1, 2}, true);
  rig.backend->measure(schedule, spec, {});
  ASSERT_EQ(rig.fake->launches.size(), 6u);
  EXPECT_EQ(rig.fake->launches[0].args.offset_words, 1);
  EXPECT_EQ(rig.fake->icache_flushes, 6);
  EXPECT_EQ(rig.fake->l2_flushes, 6);
}

TEST(hip_Backend, TimedOutPairsAreMarkedAndTheRunGoesOn) {
  FakeHipConfig cfg;
  cfg.timeout_cu = 1;
  Rig rig = make_rig(cfg);
  MeasureSpec spec = quick_spec();
  spec.samples = 4;
  const auto out = rig.backend->measure(make_schedule({0, 1, 2}, false), spec, {});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[0].timed_out);   // (0,1)
  EXPECT_EQ(out[0].rtt_ns.size(), 1u);
  EXPECT_FALSE(out[1].timed_out);  // (0,2)
  EXPECT_EQ(out[1].rtt_ns.size(), 4u);
  EXPECT_TRUE(out[2].timed_out);   // (1,2)
  EXPECT_EQ(rig.fake->launches.size(), 3u);  // one a pair, timed out or not
}

TEST(hip_Backend, HwIdMismatchesAreReportedNotHidden) {
  FakeHipConfig cfg;
  cfg.alias_cu = {{5, 9}};
  cfg.drifting_cu = 3;
  Rig rig = make_rig(cfg);
  rig.backend->measure(make_schedule({3, 5, 9, 12}, false), quick_spec(), {});
  const auto warnings = rig.backend->device().extra["hw_id_warnings"];
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

TEST(hip_Backend, TopologyComesFromHwIds) {
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

TEST(hip_Backend, StreamCreationFailureSurfacesAsRuntimeFailure) {
  FakeHipConfig cfg;
  cfg.rejected_cu = 2;
  Rig rig = make_rig(cfg);
  try {
    rig.backend->measure(make_schedule({0, 1, 2}, false), quick_spec(), {});
    FAIL() << "expected RuntimeFailure";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("hipExtStreamCreateWithCUMask failed for CU 2 (mask "),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cumap
