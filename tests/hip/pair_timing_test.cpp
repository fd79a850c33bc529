#include <gtest/gtest.h>

#include "backends/hip/pair_timing.hpp"

namespace cumap {
namespace {

TEST(hip_PairTiming, OrderedPairsRunOneLegWithEverySample) {
  const auto legs = pair_legs(Pair{3, 9}, 5, /*ordered=*/true);
  ASSERT_EQ(legs.size(), 1u);
  EXPECT_EQ(legs[0].ping, 3);
  EXPECT_EQ(legs[0].pong, 9);
  EXPECT_EQ(legs[0].samples, 5);
}

TEST(hip_PairTiming, UnorderedPairsAlternateRoles) {
  const auto legs = pair_legs(Pair{3, 9}, 5, /*ordered=*/false);
  ASSERT_EQ(legs.size(), 2u);
  EXPECT_EQ(legs[0].ping, 3);
  EXPECT_EQ(legs[0].samples, 3);
  EXPECT_EQ(legs[1].ping, 9);
  EXPECT_EQ(legs[1].pong, 3);
  EXPECT_EQ(legs[1].samples, 2);
  EXPECT_EQ(pair_legs(Pair{3, 9}, 1, false).size(), 1u);
}

TEST(hip_PairTiming, ConvertsTicksToNsAndCyclesPerRoundTrip) {
  PingPongResult leg;
  leg.cold_ticks = 250;                      // 2.5 us at 100 MHz
  leg.sample_ticks = {15000, 16000};         // 100 round trips each
  leg.sample_cycles = {255000, 272000};
  const PairMeasurement m =
      pair_measurement_from_legs(Pair{1, 2}, 3, {leg}, 100, HipClocks{100e6, 1.7e9});
  EXPECT_EQ(m.a, 1);
  EXPECT_EQ(m.b, 2);
  EXPECT_EQ(m.copy, 3);
  ASSERT_EQ(m.rtt_ns.size(), 2u);
  EXPECT_DOUBLE_EQ(m.rtt_ns[0], 1500.0);
  EXPECT_DOUBLE_EQ(m.rtt_ns[1], 1600.0);
  EXPECT_DOUBLE_EQ(m.rtt_cycles[1], 2720.0);
  EXPECT_DOUBLE_EQ(m.cold_rtt_ns, 2500.0);
  EXPECT_FALSE(m.timed_out);
}

TEST(hip_PairTiming, ColdComesFromTheFirstLegAndTimeoutsPropagate) {
  PingPongResult first;
  first.cold_ticks = 100;
  first.sample_ticks = {1000};
  PingPongResult second;
  second.cold_ticks = 999;
  second.timed_out = true;
  const PairMeasurement m =
      pair_measurement_from_legs(Pair{0, 1}, 0, {first, second}, 10, HipClocks{25e6, 0.0});
  EXPECT_DOUBLE_EQ(m.cold_rtt_ns, 4000.0);  // 100 ticks at 25 MHz
  EXPECT_EQ(m.rtt_ns.size(), 1u);
  EXPECT_TRUE(m.rtt_cycles.empty());  // no shader clock rate: no cycles
  EXPECT_TRUE(m.timed_out);
}

TEST(hip_PairTiming, AWrongWallClockRateIsCaughtByTheEvents) {
  PingPongResult leg;
  leg.sample_ticks = {100000};  // 1 ms at 100 MHz
  leg.event_ms = 1.2;
  EXPECT_FALSE(wall_clock_disagreement(leg, 100e6).has_value());
  // Were the clock really 25 MHz, the samples would claim 4 ms in a 1.2 ms kernel.
  const auto msg = wall_clock_disagreement(leg, 25e6);
  ASSERT_TRUE(msg.has_value());
  EXPECT_NE(msg->find("wall-clock rate is probably wrong"), std::string::npos);
}

}  // namespace
}  // namespace cumap
