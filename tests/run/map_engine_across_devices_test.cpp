// The map engine across devices, over a fake of two chips joined by a link:
// homes per chip, every pair measured (pairs across chips once with the
// flags on each side), cells that weigh the two sides alike, the GPU x GPU
// table, and a structure table of each chip's own pairs only.
#include <cmath>
#include <map>
#include <tuple>

#include <gtest/gtest.h>

#include "run/home_discovery.hpp"
#include "core/map_result.hpp"
#include "run/measure_placement.hpp"
#include "fake_chip_backend.hpp"
#include "placement_runs.hpp"
#include "small_map.hpp"
#include "core/homes.hpp"

namespace cumap {
namespace map_engine_across_devices_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

using test::measure_placement;
using test::measure_placement_scheduled;
using test::request_for;

test::FakeChip two_chips() {
  test::FakeChip chip;
  chip.devices = 2;
  chip.units = 8;
  chip.link_ns = 900.0;      // into device 0's memory
  chip.link_step_ns = 100.0;  // into device 1's: 1000
  return chip;
}

Options small_options() {
  Options o = test::small_options();
  o.schedule = ScheduleKind::Concurrent;
  return o;
}

TEST(AcrossDevices, EachChipHasItsOwnHomesWithCanonicalLabels) {
  test::FakeChipBackend chip(two_chips());
  const RunHomes homes = discover_homes(chip, chip.units(), small_options(), {});
  ASSERT_EQ(homes.size(), 2u);
  EXPECT_EQ(chip.probes_of_device, (std::map<int, int>{{0, 2}, {1, 2}})) << "a probe and a re-check per chip";
  EXPECT_EQ(chip.remote_probes_of_device, (std::map<int, int>{{0, 1}, {1, 1}})) << "each chip's lines from the other's";
  for (const HomesResult& h : homes) {
    EXPECT_EQ(h.classes.class_count, 2);
    ASSERT_EQ(h.unit_ids.size(), 8u);
    // The remote table: the other chip's units, over the link, on the same lines.
    ASSERT_EQ(h.remote.units.size(), 8u);
    EXPECT_EQ(h.remote.lines, h.table.lines);
    for (const UnitRef& u : h.remote.units) EXPECT_NE(u.device, h.device);
    EXPECT_DOUBLE_EQ(h.remote.ns_at(0, 0), 900.0 + 100.0 * h.device) << "the fake's link into this device";
    for (std::size_t u = 0; u < 8; ++u) {
      EXPECT_EQ(h.unit_ids[u], unit_id(UnitRef{h.device, static_cast<int>(u)}));
      EXPECT_EQ(h.classes.unit_side[u], static_cast<int>(u) % 2) << "side 0 holds the chip's lowest unit";
    }
  }
}

TEST(AcrossDevices, EveryPairOncePerLineAndPairsAcrossOnBothSides) {
  test::FakeChipBackend chip(two_chips());
  const Options o = small_options();
  const RunHomes homes = discover_homes(chip, chip.units(), o, {});
  const PlacementResult p = measure_placement(chip, request_for(homes, o, chip.units(), 8), {}, {});
  EXPECT_EQ(chip.max_round_seen, 8u);
  ASSERT_EQ(p.per_class.size(), 2u);
  for (const LatencyMap& m : p.per_class) {
    std::map<std::tuple<int, int, int>, int> count;  // a, b, flag device
    for (const PairStats& s : m.pairs) {
      EXPECT_FALSE(s.timed_out);
      ++count[{s.a, s.b, s.flag_device}];
    }
    // 2 x 28 own pairs + 64 across on each side, each on 2 lines.
    EXPECT_EQ(m.pairs.size(), 2u * (2 * 28 + 2 * 64));
    for (const auto& [key, n] : count) {
      const auto [a, b, device] = key;
      EXPECT_EQ(n, 2);
      if (device_of_id(a) == device_of_id(b)) {
        EXPECT_EQ(device, device_of_id(a));
      }
    }
  }
}

TEST(AcrossDevices, ACellAcrossWeighsBothSidesAndTheGpuTableKeepsThemApart) {
  test::FakeChipBackend chip(two_chips());
  const Options o = small_options();
  const RunHomes homes = discover_homes(chip, chip.units(), o, {});
  const PlacementResult p = measure_placement(chip, request_for(homes, o, chip.units(), 8), {}, {});
  const ValueMatrix& m = p.headline_ns;
  const auto cell = [&](int a, int b) {
    const auto at = [&](int u) { return static_cast<std::size_t>(std::find(m.units.begin(), m.units.end(), u) - m.units.begin()); };
    return m.at(at(a), at(b));
  };
  // g0.0 with g1.0, same-line: the local unit reaches the flag twice (near
  // 150 / far 250 ns by class), the remote one over the link twice. One-way,
  // flags on g0: 150 + 900 or 250 + 900; on g1: 150 + 1000 or 250 + 1000.
  EXPECT_DOUBLE_EQ(cell(0, 100000), (1050 + 1150 + 1150 + 1250) / 4.0);
  EXPECT_DOUBLE_EQ(p.flags_on_ns.at(0).at(0, 8), 1100.0);
  EXPECT_DOUBLE_EQ(p.flags_on_ns.at(1).at(0, 8), 1200.0);
  // A chip's own pair is untouched by the link: both units reach the flag
  // twice, near (300 one-way) in class 0, far (500) in class 1.
  EXPECT_DOUBLE_EQ(cell(0, 2), 400.0);

  const std::vector<GpuPairRow> rows = p.gpu_table;
  std::map<std::tuple<int, int, std::string>, GpuPairRow> by;
  for (const GpuPairRow& r : rows) by[{r.gpu_a, r.gpu_b, r.flags_on}] = r;
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(by.at({0, 0, "g0"}).cells, 28u);
  EXPECT_EQ(by.at({1, 1, "g1"}).cells, 28u);
  EXPECT_EQ(by.at({0, 1, "both"}).cells, 64u);
  EXPECT_DOUBLE_EQ(by.at({0, 1, "g0"}).oneway_ns.median, 1100.0);
  EXPECT_DOUBLE_EQ(by.at({0, 1, "g1"}).oneway_ns.median, 1200.0);
  EXPECT_DOUBLE_EQ(by.at({0, 1, "both"}).oneway_ns.median, 1150.0);

  // Sides and classes are a chip's own: the structure table has own pairs only.
  const UnitSides sides = unit_sides(homes);
  const std::vector<StructureRow> structure = structure_table(p.per_class_ns, sides.units, sides.sides);
  ASSERT_EQ(structure.size(), 3u);
  for (const StructureRow& row : structure) {
    EXPECT_LE(row.median_ns, 500.0) << row.relation << " " << row.near_units;
    EXPECT_EQ(row.cells, row.relation == "same-side" ? 2u * 2u * 12u / 2u : 2u * 2u * 16u) << row.relation;
  }
}

TEST(AcrossDevices, FlagsOnOneSideMeasureEachPairAcrossOnce) {
  test::FakeChipBackend chip(two_chips());
  Options o = small_options();
  o.flag_on = FlagOn::B;
  const RunHomes homes = discover_homes(chip, chip.units(), o, {});
  const PlacementResult p = measure_placement(chip, request_for(homes, o, chip.units(), 8), {}, {});
  for (const PairStats& s : p.per_class[0].pairs)
    if (device_of_id(s.a) != device_of_id(s.b)) {
      EXPECT_EQ(s.flag_device, device_of_id(s.b));
    }
  EXPECT_EQ(p.per_class[0].pairs.size(), 2u * (2 * 28 + 64));
  EXPECT_TRUE(p.flags_on_ns.empty() || p.flags_on_ns.size() == 2u);
}

TEST(AcrossDevices, TheSerialScheduleAndItsCheckWorkAcrossChips) {
  test::FakeChipBackend chip(two_chips());
  Options o = small_options();
  o.schedule = ScheduleKind::Auto;
  const RunHomes homes = discover_homes(chip, chip.units(), o, {});
  const PlacementResult p = measure_placement_scheduled(chip, request_for(homes, o, chip.units(), 8), {}, {});
  ASSERT_FALSE(p.checks.empty());
  EXPECT_TRUE(p.checks.back().passed);
  EXPECT_EQ(p.pairs_per_round, 8);
  EXPECT_TRUE(p.complete);
}

TEST(AcrossDevices, PairsAcrossTakeTheirOwnRoundTripsAndTheOthersTheMaps) {
  test::FakeChipBackend chip(two_chips());
  Options o = small_options();
  o.schedule = ScheduleKind::Auto;  // the pilot and the serial check too
  const RunHomes homes = discover_homes(chip, chip.units(), o, {});
  PlacementRequest request = request_for(homes, o, chip.units(), 8);
  request.cross_samples = 2;
  request.cross_warmup = 1;
  const PlacementResult p = measure_placement_scheduled(chip, request, {}, {});
  ASSERT_TRUE(p.complete);
  ASSERT_FALSE(p.checks.empty());
  EXPECT_TRUE(p.checks.back().passed) << "the serial check measures each pair with its own round trips";
  for (const LatencyMap& m : p.per_class) {
    EXPECT_EQ(m.pairs.size(), 2u * (2 * 28 + 2 * 64)) << "every pair, inside and across, on every line";
    for (const PairStats& s : m.pairs)
      EXPECT_EQ(s.rtt_ns.count, device_of_id(s.a) == device_of_id(s.b) ? 3 : 2) << s.a << "-" << s.b;
  }
}

}  // namespace
}  // namespace cumap
