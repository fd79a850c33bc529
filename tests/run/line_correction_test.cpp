// The line correction: a value is moved by what the home table predicts its
// flag lines add over their class's average line.
#include <gtest/gtest.h>

#include "run/line_correction.hpp"
#include "pair_stats.hpp"

namespace cumap {
namespace {

// Two units, four lines of one class. Unit 0 averages 100 ns over them,
// unit 1 200 ns.
HomesResult two_units_four_lines() {
  HomesResult h;
  h.table.units = {UnitRef{0, 0}, UnitRef{0, 1}};
  h.table.lines = {0, 128, 256, 384};
  h.table.ns = {100, 110, 90, 100,    // unit 0
                200, 200, 220, 180};  // unit 1
  h.table.cycles = h.table.ns;
  h.classes.class_count = 1;
  h.classes.line_class = {0, 0, 0, 0};
  h.classes.unit_side = {0, 0};
  h.unit_ids = {0, 1};
  return h;
}

using test::pair_at;

TEST(LineCorrection, HalfTheRoundTripsPredictedExcessOverTheClassAverage) {
  const RunHomes homes{two_units_four_lines()};
  const LineCorrection c(homes);
  // Same line 128: unit 0 is 10 ns slow there, unit 1 average: the round trip
  // T[0][L] + T[1][L] is 10 ns over, one-way 5 ns.
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 1, 0, 128, 132), 5.0);
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 1, 0, 256, 260), 5.0);   // -10 + 20
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 1, 0, 384, 388), -10.0);  // 0 - 20
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 1, 0, 0, 4), 0.0);       // the average line
  // Split line: the mean over both flag lines.
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 1, 0, 128, 384), -2.5);
}

TEST(LineCorrection, UnknownUnitsAndLinesAreLeftAlone) {
  const RunHomes homes{two_units_four_lines()};
  const LineCorrection c(homes);
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 7, 0, 128, 132), 0.0);
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 1, 0, 4096, 4100), 0.0);
}

TEST(LineCorrection, MapsShowTheCorrectedValueAndLinesThatDifferByTheirHomeAgree) {
  const HomesResult h = two_units_four_lines();
  LatencyMap map;
  map.spec.units = {0, 1};
  map.spec.home_class = 0;
  // The pair measured on lines 128 and 384: 5 ns over and 10 ns under the
  // average line, exactly as the table predicts.
  for (auto [flag, oneway] : {std::pair<std::uint64_t, double>{128, 305.0}, {384, 290.0}}) {
    PairStats p = pair_at(0, 1, oneway);
    p.first_flag = flag;
    p.second_flag = flag + 4;
    map.pairs.push_back(p);
  }
  const RunHomes homes{h};
  apply_line_correction(map, LineCorrection(homes));
  EXPECT_DOUBLE_EQ(map.pairs[0].corrected_oneway_ns(), 300.0);
  EXPECT_DOUBLE_EQ(map.pairs[1].corrected_oneway_ns(), 300.0);
  EXPECT_DOUBLE_EQ(map.oneway_ns().at(0, 1), 300.0);
  EXPECT_DOUBLE_EQ(map.line_spread_ns().at(0, 1), 15.0) << "the spread stays that of the measured values";
}

// Two devices with a table each and no remote table. A pair across them has
// its flags on one: only the unit on that device has a row for the line; the
// other's term over the link is unknown, so it stays out.
TEST(LineCorrection, AcrossDevicesWithoutARemoteTableOnlyTheUnitOnTheFlagsDeviceCounts) {
  HomesResult g0 = two_units_four_lines();
  HomesResult g1 = two_units_four_lines();
  g1.device = 1;
  g1.unit_ids = {100000, 100001};
  g1.table.units = {UnitRef{1, 0}, UnitRef{1, 1}};
  const RunHomes homes{g0, g1};
  const LineCorrection c(homes);
  // Flags on device 0, line 128: unit 0 (device 0) is 10 ns over its class
  // average; unit 100001 is on device 1: round trip 10, one-way 5.
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 100001, 0, 128, 132), 5.0);
  // Flags on device 1, line 256: unit 100001 is 20 ns over (220 - 200).
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 100001, 1, 256, 260), 10.0);
  // On one device both units count, as before.
  EXPECT_DOUBLE_EQ(c.oneway_ns(100000, 100001, 1, 256, 260), 5.0);
  // A unit no table knows: nothing is known.
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 7, 0, 128, 132), 0.0);
}

// With the remote table (the other device's units to these lines, over the
// link), the far unit's line term counts too.
TEST(LineCorrection, AcrossDevicesTheFarUnitsTermComesFromTheRemoteTable) {
  HomesResult g0 = two_units_four_lines();
  HomesResult g1 = two_units_four_lines();
  g1.device = 1;
  g1.unit_ids = {100000, 100001};
  g1.table.units = {UnitRef{1, 0}, UnitRef{1, 1}};
  // Device 0's lines from device 1's units: unit 100001 averages 900 ns, 30 ns over on line 128.
  g0.remote.units = {UnitRef{1, 0}, UnitRef{1, 1}};
  g0.remote.lines = g0.table.lines;
  g0.remote.ns = {880, 880, 880, 880,    // unit 100000: every line alike
                  900, 930, 870, 900};   // unit 100001
  g0.remote.cycles = g0.remote.ns;
  const RunHomes homes{g0, g1};
  const LineCorrection c(homes);
  // Flags on device 0, line 128: unit 0 is 10 ns over, unit 100001 30 ns: round trip 40, one-way 20.
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 100001, 0, 128, 132), 20.0);
  // Line 256: -10 and -30.
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 100001, 0, 256, 260), -20.0);
  // A far unit whose lines all cost the same adds nothing.
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 100000, 0, 128, 132), 5.0);
  // Device 1 has no remote table: its far units stay out.
  EXPECT_DOUBLE_EQ(c.oneway_ns(0, 100001, 1, 256, 260), 10.0);
}

}  // namespace
}  // namespace cumap
