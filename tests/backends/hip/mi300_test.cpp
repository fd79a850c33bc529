// What ROCm really does, against the fake: a queue budget, time-slicing past
// the hardware's queues, and MI300's CU masks striped across XCDs.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cumap/error.hpp"

#include "backends/hip/cu_mask.hpp"
#include "backends/hip/hip_backend.hpp"
#include "backends/hip/hw_id.hpp"
#include "backends/hip/queue_budget.hpp"
#include "fake_hip_runtime.hpp"
#include "hip_plans.hpp"

namespace cumap {
namespace mi300_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

using testing::FakeHipConfig;
using testing::FakeHipRuntime;

FakeHipConfig mi300x() {
  FakeHipConfig cfg;
  cfg.name = "Fake AMD Instinct MI300X";
  cfg.arch = "gfx942:sramecc+:xnack-";
  cfg.cu_count = 304;
  cfg.xcds = 8;
  cfg.shader_engines = 4;
  return cfg;
}

MeasurementPlan quick(MeasurementPlan plan) {
  plan.counts.iters = 4;
  plan.counts.samples = 1;
  plan.counts.warmup = 0;
  return plan;
}

TEST(XcdStriping, UnitsAreNumberedXcdByXcd) {
  const XcdStriping s{8, 304};
  EXPECT_EQ(s.per_xcd(), 38);
  EXPECT_EQ(s.mask_bit_of_unit(0), 0);    // XCD 0, CU 0
  EXPECT_EQ(s.mask_bit_of_unit(1), 8);    // XCD 0, CU 1: the next bit of XCD 0 is 8 bits on
  EXPECT_EQ(s.mask_bit_of_unit(38), 1);   // XCD 1, CU 0
  EXPECT_EQ(s.mask_bit_of_unit(303), 37 * 8 + 7);
  EXPECT_EQ(s.xcd_of_unit(303), 7);
  std::set<int> bits;
  for (int u = 0; u < 304; ++u) bits.insert(s.mask_bit_of_unit(u));
  EXPECT_EQ(bits.size(), 304u) << "every unit its own bit";
  EXPECT_EQ(cu_mask_for_unit(s, 38), cu_mask_for_unit(HipUnit::Cu, 1, 304));
  EXPECT_EQ(cu_mask_for_unit(XcdStriping{1, 64}, 5), cu_mask_for_unit(HipUnit::Cu, 5, 64));
}

TEST(XcdStriping, Gfx942IdsDecodeToXcdSeSaCu) {
  // HW_ID as on gfx90a (CU 11:8, SH 12, SE 15:13); XCC_ID bits 3:0 the XCD,
  // the bits above it not part of the id.
  const HwLocation loc = decode_hw_reading({0x00005B27u, 0x00000035u}, HwIdLayout::Gfx9);
  EXPECT_EQ(loc.xcd, 5);
  EXPECT_EQ(loc.se, 2);
  EXPECT_EQ(loc.sa, 1);
  EXPECT_EQ(loc.cu_or_wgp, 11);
  EXPECT_EQ(format_location(loc, HwIdLayout::Gfx9, true), "XCD5/SE2/SA1/CU11");
}

TEST(XcdStriping, ACheckerCatchesAUnitOnTheWrongXcd) {
  HwIdChecker c(HwIdLayout::Gfx9, HipUnit::Cu, "CU");
  c.record(40, HwReading{0x0100u, 1}, 1);
  EXPECT_TRUE(c.warnings().empty());
  c.record(41, HwReading{0x0200u, 2}, 1);
  ASSERT_EQ(c.warnings().size(), 1u);
  EXPECT_NE(c.warnings()[0].find("CU 41 ran on XCD 2 but its mask was built for XCD 1"), std::string::npos);
}

TEST(Mi300, A304CuEightXcdDeviceMapsCompletelyUnderA24QueueBudget) {
  FakeHipConfig cfg = mi300x();
  cfg.hw_queues = 24;
  auto fake = std::make_unique<FakeHipRuntime>(cfg);
  FakeHipRuntime& seen = *fake;
  auto backend = make_hip_backend_with_runtime(std::move(fake), DeviceSelection{});
  EXPECT_EQ(backend->device().extra["max_streams"], 24);
  const Topology topo = backend->topology();
  ASSERT_EQ(topo.details["xcds"], 8);
  EXPECT_EQ(topo.groups.front().name, "XCD0/SE0/SA0");
  EXPECT_EQ(topo.groups.back().name.substr(0, 5), "XCD7/");
  for (const UnitGroup& g : topo.groups)  // units 38x .. 38x+37 are XCD x
    for (int u : g.units) EXPECT_EQ(g.name.substr(0, 4), "XCD" + std::to_string(u / 38)) << u;

  const MeasurementPlan plan = quick(testing::concurrent_plan(304));
  const Measurements out = backend->measure(plan, {});
  ASSERT_EQ(out.pairs.size(), 304u * 303u / 2u);
  for (const PairMeasurement& m : out.pairs) ASSERT_FALSE(m.timed_out) << m.a.unit << "-" << m.b.unit;
  EXPECT_LE(seen.max_live_streams, 24u);
  EXPECT_EQ(seen.time_sliced_pairs, 0);
  EXPECT_EQ(out.stats.extra["xcds"], 8);
  EXPECT_TRUE(out.stats.extra["hw_id_warnings"].empty()) << out.stats.extra["hw_id_warnings"].dump();
}

// The budget is above what the hardware runs at once (16 queues): pairs on
// the queues past the 16th never overlap and time out. The backend must
// notice, shrink the pool, measure them again and end with a complete map.
TEST(Mi300, TimeSlicingIsDetectedAndTheMapRecovers) {
  FakeHipConfig cfg = mi300x();
  cfg.hw_queues = 16;
  auto fake = std::make_unique<FakeHipRuntime>(cfg);
  FakeHipRuntime& seen = *fake;
  auto backend = make_hip_backend_with_runtime(std::move(fake), DeviceSelection{});
  const Measurements out = backend->measure(quick(testing::concurrent_plan(64)), {});
  ASSERT_EQ(out.pairs.size(), 2016u);
  for (const PairMeasurement& m : out.pairs) EXPECT_FALSE(m.timed_out) << m.a.unit << "-" << m.b.unit;
  EXPECT_GT(seen.time_sliced_pairs, 0) << "the fake did time-slice";
  EXPECT_GE(out.stats.extra["time_slicing_events"].get<int>(), 1);
  EXPECT_EQ(out.stats.extra["remeasured_pairs"].get<int>(), seen.time_sliced_pairs);
  EXPECT_LE(out.stats.extra["max_streams"].get<int>(), 16);
  EXPECT_LE(backend->capabilities().max_pairs_per_round, 8);
}

TEST(Mi300, AColdRoundTripOfATimeSliceAlsoCountsAsTimeSlicing) {
  FakeHipConfig cfg;
  cfg.hw_queues = 4;
  cfg.time_sliced_cold_ticks = 200'000;  // 2 ms at 100 MHz: a time slice, not a round trip
  auto fake = std::make_unique<FakeHipRuntime>(cfg);
  FakeHipRuntime& seen = *fake;
  DeviceSelection s;
  s.max_streams = 8;
  auto backend = make_hip_backend_with_runtime(std::move(fake), s);
  const Measurements out = backend->measure(quick(testing::concurrent_plan(8)), {});
  EXPECT_GT(seen.time_sliced_pairs, 0);
  EXPECT_GE(out.stats.extra["time_slicing_events"].get<int>(), 1);
  for (const PairMeasurement& m : out.pairs) EXPECT_LT(m.cold_rtt_ns, kTimeSlicedColdRoundTripNs) << m.a.unit;
}

TEST(QueueBudget, DefaultsByFamilyAndTheOptionWins) {
  EXPECT_EQ(queue_budget(0, "gfx942:sramecc+:xnack-").streams, 24);
  EXPECT_EQ(queue_budget(0, "gfx90a").streams, 24);
  EXPECT_EQ(queue_budget(0, "gfx1100").streams, 16);
  EXPECT_EQ(queue_budget(10, "gfx942").streams, 10);
  EXPECT_THROW(queue_budget(1, "gfx942"), UsageError);
  EXPECT_EQ(reduced_queue_budget(24), 12u);
  EXPECT_EQ(reduced_queue_budget(10), 4u);
  EXPECT_EQ(reduced_queue_budget(2), 2u);
}

}  // namespace
}  // namespace cumap
