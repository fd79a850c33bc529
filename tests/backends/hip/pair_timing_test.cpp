#include <cmath>

#include <gtest/gtest.h>

#include "backends/hip/pair_timing.hpp"

namespace cumap {
namespace {

protocol::Counts iters(int n) {
  protocol::Counts c;
  c.iters = n;
  return c;
}

TEST(PairTiming, ASampleIsBothHalvesOverIters) {
  PingPongResult r;
  r.cold_ticks = 250;                   // 2.5 us at 100 MHz
  r.a_pinged.ticks = {5000, 6000};      // 50 round trips a->b: 100 and 120 ticks each
  r.b_pinged.ticks = {10000, 10000};    // 50 round trips b->a: 200 ticks each
  r.a_pinged.cycles = {85000, 85000};
  r.b_pinged.cycles = {170000, 187000};
  const PairMeasurement m = pair_measurement_from_result(PlannedPair{{0, 1}, {0, 2}, {}, 3}, 2, r, iters(100), HipClocks{100e6, 1.7e9});
  EXPECT_EQ(m.a.unit, 1);
  EXPECT_EQ(m.b.unit, 2);
  EXPECT_EQ(m.tag, 3);
  EXPECT_EQ(m.round, 2);
  ASSERT_EQ(m.rtt_ns.size(), 2u);
  EXPECT_DOUBLE_EQ(m.rtt_ns[0], 1500.0);  // (5000 + 10000) / 100 ticks = 150 ticks
  EXPECT_DOUBLE_EQ(m.rtt_ns[1], 1600.0);
  ASSERT_EQ(m.rtt_cycles.size(), 2u);
  EXPECT_DOUBLE_EQ(m.rtt_cycles[0], 2550.0);
  EXPECT_DOUBLE_EQ(m.rtt_cycles[1], 2720.0);
  EXPECT_DOUBLE_EQ(m.cold_rtt_ns, 2500.0);
  EXPECT_FALSE(m.timed_out);
}

TEST(PairTiming, OrderedResultsHaveZeroBHalves) {
  PingPongResult r;
  r.a_pinged.ticks = {15000};
  r.b_pinged.ticks = {0};
  r.a_pinged.cycles = {255000};
  r.b_pinged.cycles = {0};
  const PairMeasurement m = pair_measurement_from_result(PlannedPair{{0, 4}, {0, 0}, {}, 0}, 2, r, iters(100), HipClocks{100e6, 1.7e9});
  ASSERT_EQ(m.rtt_ns.size(), 1u);
  EXPECT_DOUBLE_EQ(m.rtt_ns[0], 1500.0);
  EXPECT_DOUBLE_EQ(m.rtt_cycles[0], 2550.0);
}

TEST(PairTiming, TimeoutsPropagateAndNoColdTripMeansNaN) {
  PingPongResult r;
  r.timed_out = true;
  r.a_pinged.ticks = {1000};
  r.b_pinged.ticks = {1000};
  const PairMeasurement m = pair_measurement_from_result(PlannedPair{{0, 0}, {0, 1}, {}, 0}, 2, r, iters(10), HipClocks{25e6, 0.0});
  EXPECT_TRUE(std::isnan(m.cold_rtt_ns));  // cold_ticks 0: timed out before one round trip
  ASSERT_EQ(m.rtt_ns.size(), 1u);
  EXPECT_DOUBLE_EQ(m.rtt_ns[0], 8000.0);  // 200 ticks at 25 MHz over 10
  EXPECT_TRUE(m.rtt_cycles.empty());      // no shader clock rate: no cycles
  EXPECT_TRUE(m.timed_out);
}

TEST(PairTiming, AWrongWallClockRateIsCaughtByTheEvents) {
  PingPongResult r;
  r.a_pinged.ticks = {20000};
  r.b_pinged.ticks = {80000};  // together 1 ms at 100 MHz
  r.event_ms = 1.05;
  EXPECT_FALSE(wall_clock_disagreement(r, 100e6).has_value());
  // Were the clock really 25 MHz, the samples would claim 4 ms in a 1.05 ms kernel.
  const auto msg = wall_clock_disagreement(r, 25e6);
  ASSERT_TRUE(msg.has_value());
  EXPECT_NE(msg->find("wall-clock rate is probably wrong"), std::string::npos);
  // b's halves count too: a's alone (0.8 ms at 25 MHz) would fit.
  EXPECT_NE(msg->find("4.000 ms"), std::string::npos) << *msg;
}

}  // namespace
}  // namespace cumap
