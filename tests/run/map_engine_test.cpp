// The map engine over a fake chip: homes are found, lines are chosen by home
// class, the per-class maps show the structure, and --schedule auto backs
// off from a concurrency whose serial check fails.
#include <cmath>

#include <gtest/gtest.h>

#include "run/home_discovery.hpp"
#include "run/map_run.hpp"
#include "run/measure_placement.hpp"
#include "core/display_layout.hpp"
#include "plan/planner.hpp"
#include "fake_chip_backend.hpp"
#include "merge_maps.hpp"
#include "placement_runs.hpp"
#include "small_map.hpp"
#include "core/matrix.hpp"

namespace cumap {
namespace {

using test::measure_placement;
using test::measure_placement_scheduled;
using test::merge_maps;
using test::request_for;
using test::small_options;


TEST(MapRun, HomeDiscoveryFindsTheFakeChipsClassesAndSides) {
  test::FakeChipBackend chip({});
  const Options o = small_options();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  const HomesResult& homes = homes_run.front();
  ASSERT_EQ(homes.classes.class_count, 2);
  for (std::size_t u = 0; u < homes.table.units.size(); ++u) {
    const int unit = homes.table.units[u].unit;
    // Unit u is near home u % 2; the class labels may be permuted.
    EXPECT_EQ(homes.classes.unit_side[u] == homes.classes.unit_side[0], unit % 2 == 0) << unit;
  }
  for (std::size_t l = 0; l < homes.table.lines.size(); ++l)
    EXPECT_EQ(homes.classes.line_class[l] == homes.classes.line_class[0],
              chip.home_of(homes.table.lines[l]) == chip.home_of(0));
}

// Two runs of one chip at flag offsets one home apart probe lines whose homes
// are swapped; a user compares them by file name, so home classes and sides
// must be named by the units, not by the lines (issue: home0 of one run was
// home1 of the other).
TEST(MapRun, TwoFlagOffsetsNameClassesAndSidesAlike) {
  test::FakeChipBackend chip({});
  Options o = small_options();
  const RunHomes first_run = discover_homes(chip, chip.units(), o, {});
  const HomesResult& first = first_run.front();
  o.flag_offset = 32 * protocol::kLineBytes;  // one fake home further: every line's home changes
  const RunHomes second_run = discover_homes(chip, chip.units(), o, {});
  const HomesResult& second = second_run.front();
  ASSERT_EQ(first.classes.class_count, 2);
  ASSERT_EQ(second.classes.class_count, 2);
  ASSERT_NE(chip.home_of(first.arena.offset_bytes), chip.home_of(second.arena.offset_bytes));
  EXPECT_EQ(first.classes.unit_side, second.classes.unit_side);
  EXPECT_EQ(first.classes.unit_side[0], 0) << "side 0 holds the lowest unit";
  for (std::size_t u = 0; u < first.table.units.size(); ++u)
    EXPECT_EQ(first.classes.unit_side[u], first.table.units[u].unit % 2) << "unit u is near fake home u % 2";
  // Class c is the class side c is near, in both runs: a line's class is the
  // side of the units near it.
  for (const HomesResult* h : {&first, &second})
    for (std::size_t l = 0; l < h->table.lines.size(); ++l)
      EXPECT_EQ(h->classes.line_class[l], chip.home_of(h->table.lines[l] + h->arena.offset_bytes)) << l;
  EXPECT_EQ(first.classes.class_unit_ns, second.classes.class_unit_ns);
}

// What a busy 2-core CI machine showed: a slow stretch of the probe made a
// block of lines look like a second home. Re-probing every eighth line finds
// that the split does not reproduce, and one class is kept.
TEST(MapRun, HomeClassesThatDoNotReproduceAreNoise) {
  test::FakeChip spec;
  spec.classes = 1;
  spec.slow_stretch_lines = 128;
  spec.slow_stretch_factor = 1.3;
  test::FakeChipBackend chip(spec);
  const RunHomes homes_run = discover_homes(chip, chip.units(), small_options(), {});
  const HomesResult& homes = homes_run.front();
  EXPECT_EQ(chip.probe_calls, 2) << "the probe and the re-check";
  EXPECT_EQ(homes.unreproduced_class_count, 2) << "the stretch looked like a class at first";
  EXPECT_EQ(homes.classes.class_count, 1);
  EXPECT_LT(homes.recheck_agreement, 0.9);
}

// What CI's 2-core machine showed with --home-lines 16: two classes out of
// noise, and two re-probed lines (every eighth) both happening to agree. A
// small probe is re-probed whole: the stretch (lines 9-15) is missed by
// every eighth line, not by every line.
TEST(MapRun, ASmallProbeIsReprobedWhole) {
  test::FakeChip spec;
  spec.classes = 1;
  spec.slow_stretch_from = 9;
  spec.slow_stretch_lines = 7;
  spec.slow_stretch_factor = 1.3;
  test::FakeChipBackend chip(spec);
  Options o = small_options();
  o.home_lines = 16;
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  const HomesResult& homes = homes_run.front();
  ASSERT_EQ(homes.unreproduced_class_count, 2) << "the stretch looked like a class at first";
  EXPECT_EQ(homes.classes.class_count, 1);
  EXPECT_NEAR(homes.recheck_agreement, 9.0 / 16.0, 1e-9) << "every line probed again, the stretch's 7 not in their class";
}

TEST(MapRun, RealHomeClassesReproduce) {
  test::FakeChipBackend chip({});
  const RunHomes homes_run = discover_homes(chip, chip.units(), small_options(), {});
  const HomesResult& homes = homes_run.front();
  EXPECT_EQ(homes.classes.class_count, 2);
  EXPECT_DOUBLE_EQ(homes.recheck_agreement, 1.0);
  EXPECT_EQ(homes.unreproduced_class_count, 0);
}

TEST(MapRun, SameLineMapsPerClassShowNearAndFarUnits) {
  test::FakeChipBackend chip({});
  const Options o = small_options();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  const HomesResult& homes = homes_run.front();
  PlacementRequest r = request_for(homes_run, o, chip.units(), 1);
  const PlacementResult p = measure_placement(chip, r, {}, {});
  ASSERT_EQ(p.per_class.size(), 2u);
  for (const LatencyMap& m : p.per_class) {
    const ValueMatrix v = m.oneway_ns();
    const int near = homes.classes.unit_side[0] == m.spec.home_class ? 0 : 1;  // a unit near this class
    // Both units near the flag's home: 2 x 2 x near / 2 one-way; both far: the same with far.
    EXPECT_DOUBLE_EQ(v.at(near, near + 2), 2 * 150.0);
    EXPECT_DOUBLE_EQ(v.at(1 - near, 3 - near), 2 * 250.0);
    EXPECT_DOUBLE_EQ(v.at(near, 1 - near + 2), 150.0 + 250.0);
  }
  // Every pair on lines_per_class lines of every class.
  EXPECT_EQ(merge_maps(p.per_class, p.headline).pairs.size(), 2u * 2u * 28u);
  EXPECT_TRUE(p.checks.empty()) << "a serial map needs no serial check";
  EXPECT_GT(p.fits[0].r2, 0.99) << "the fake chip is exactly additive";
}

TEST(MapRun, ConcurrentMapChecksItselfAgainstSerial) {
  test::FakeChipBackend chip({});
  const Options o = small_options();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  const PlacementResult p = measure_placement(chip, request_for(homes_run, o, chip.units(), 4), {}, {});
  EXPECT_EQ(chip.max_round_seen, 4u);
  ASSERT_EQ(p.checks.size(), 1u);
  EXPECT_GE(p.checks[0].agreement.n, 8u);
  EXPECT_TRUE(p.checks[0].passed);
  EXPECT_DOUBLE_EQ(p.checks[0].agreement.median_rel_diff, 0.0);
}

// A chip whose rounds of 3 or 4 pairs are 5 % slower (the way polling loads
// interfere), and the small map under --schedule auto.
test::FakeChip crowded_chip() {
  test::FakeChip spec;
  spec.crowded_above = 3;
  spec.crowding_penalty = 0.05;
  return spec;
}
Options auto_schedule() {
  Options o = small_options();
  o.schedule = ScheduleKind::Auto;
  return o;
}

TEST(MapRun, AutoSchedulePilotsHalveConcurrencyUntilTheCheckPassesThenTheMapRunsOnce) {
  test::FakeChipBackend chip(crowded_chip());
  const Options o = auto_schedule();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  const PlacementResult p = measure_placement_scheduled(chip, request_for(homes_run, o, chip.units(), 4), {}, {});
  EXPECT_EQ(p.pairs_per_round, 2);
  ASSERT_EQ(p.checks.size(), 3u) << "pilot at 4, pilot at 2, the map at 2";
  EXPECT_TRUE(p.checks[0].pilot);
  EXPECT_FALSE(p.checks[0].passed);
  EXPECT_EQ(p.checks[0].pairs_per_round, 4);
  EXPECT_NEAR(p.checks[0].agreement.median_rel_diff, 0.05 / 1.025, 1e-9);
  EXPECT_NEAR(p.checks[0].bias, 0.05, 1e-9);
  EXPECT_DOUBLE_EQ(p.checks[0].serial_repeat.median_rel_diff, 0.0);
  EXPECT_TRUE(p.checks[1].pilot);
  EXPECT_TRUE(p.checks[1].passed);
  EXPECT_FALSE(p.checks[2].pilot);
  EXPECT_TRUE(p.checks[2].passed);
  // 8 units: 28 pairs x 2 classes x 2 lines in the map. Measuring the map at
  // 4 and again at 2 (the old way) would be two maps and their samples.
  const std::size_t map_pairs = 28 * 2 * 2;
  EXPECT_LT(chip.pairs_measured, 2 * map_pairs) << "only one whole map";
}

// The pilot's serial run after it is the map's serial run before: a passing
// pilot costs the map no second sample run.
TEST(MapRun, APassingPilotHandsItsSampleToTheMap) {
  test::FakeChipBackend chip({});
  const Options o = auto_schedule();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  const int before = chip.measure_calls;
  const PlacementResult p = measure_placement_scheduled(chip, request_for(homes_run, o, chip.units(), 4), {}, {});
  ASSERT_EQ(p.checks.size(), 2u);
  EXPECT_TRUE(p.checks[0].pilot && p.checks[0].passed);
  EXPECT_TRUE(p.checks[1].passed);
  EXPECT_EQ(chip.measure_calls - before, 3 + 2 + 1)
      << "pilot: sample, rounds, sample; map: one plan per class (its 2 lines); sample after the map";
}

// Auto pilots the first placement only: the next is measured at the
// concurrency whose map passed, and only its own check runs.
TEST(MapRun, OnlyTheFirstPlacementPilotsTheNextIsMeasuredWhereItsMapPassed) {
  test::FakeChipBackend chip(crowded_chip());
  const Options o = auto_schedule();
  const MapResult r = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o, {});
  ASSERT_EQ(r.placements.size(), 2u);
  const PlacementResult& first = r.placements[0];
  const PlacementResult& next = r.placements[1];
  ASSERT_EQ(first.checks.size(), 3u) << "pilot at 4, pilot at 2, the map at 2";
  EXPECT_TRUE(first.checks[0].pilot && first.checks[1].pilot);
  EXPECT_EQ(next.pairs_per_round, 2);
  ASSERT_EQ(next.checks.size(), 1u) << "the map's own check, no pilot";
  EXPECT_FALSE(next.checks[0].pilot);
  EXPECT_TRUE(next.checks[0].passed);
}

// Settled is not trusted blindly: a later placement whose own check fails is
// measured again at half the concurrency, as a map after a pilot is.
TEST(MapRun, ASettledConcurrencyWhoseMapFailsItsCheckIsHalved) {
  test::FakeChipBackend chip(crowded_chip());
  const Options o = auto_schedule();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  PlacementRequest request = request_for(homes_run, o, chip.units(), 4);
  request.concurrency_settled = true;  // as if an earlier placement had passed at 4
  const PlacementResult p = measure_placement_scheduled(chip, request, {}, {});
  ASSERT_EQ(p.checks.size(), 2u) << "the map at 4, failed; the map at 2";
  EXPECT_FALSE(p.checks[0].pilot || p.checks[1].pilot);
  EXPECT_FALSE(p.checks[0].passed);
  EXPECT_TRUE(p.checks[1].passed);
  EXPECT_EQ(p.pairs_per_round, 2);
}

TEST(MapRun, PilotRoundsAreTheMapsOwnRoundsThatHoldTheSample) {
  const PairRounds rounds = round_robin_rounds({0, 1, 2, 3, 4, 5, 6, 7}, false);
  std::vector<Round> planned;
  for (const auto& round : rounds) {
    Round r;
    for (const UnitPair& p : round) r.pairs.push_back(PlannedPair{UnitRef{0, p.a}, UnitRef{0, p.b}, {0, 4}, 0});
    planned.push_back(r);
  }
  const std::vector<PlanPosition> at = check_sample_positions(planned, 5);
  const std::vector<Round> pilot = pilot_rounds(planned, 5);
  std::size_t held = 0;
  for (const PlanPosition& p : at) {
    const PlannedPair& sampled = planned[p.round].pairs[p.slot];
    for (const Round& r : pilot)
      for (const PlannedPair& q : r.pairs) held += q.a.unit == sampled.a.unit && q.b.unit == sampled.b.unit;
  }
  EXPECT_EQ(held, at.size()) << "every sampled pair is in the pilot once";
  for (const Round& r : pilot) EXPECT_EQ(r.pairs.size(), 4u) << "whole rounds, with their crowd";
  EXPECT_LE(pilot.size(), at.size());
}

// A chip whose every measurement wobbles by 3 %, and --schedule auto with a
// check sample of 24 pairs.
test::FakeChip noisy_chip() {
  test::FakeChip spec;
  spec.noise = 0.03;
  return spec;
}
Options auto_checking_24_pairs() {
  Options o = auto_schedule();
  o.check_pairs = 24;
  return o;
}

// What the H100 showed: at few round trips per pair the serial re-measurement
// differs from itself by more than the 0.5 % limit. Noise alone must not push
// auto down to serial; only a shift that concurrency causes may.
TEST(MapRun, NoiseWithoutInterferenceKeepsFullConcurrency) {
  test::FakeChipBackend chip(noisy_chip());
  const Options o = auto_checking_24_pairs();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  const PlacementResult p = measure_placement_scheduled(chip, request_for(homes_run, o, chip.units(), 4), {}, {});
  ASSERT_EQ(p.checks.size(), 2u) << "shift " << p.checks[0].bias << " difference "
                                 << p.checks[0].agreement.median_rel_diff << " floor "
                                 << p.checks[0].serial_repeat.median_rel_diff;
  EXPECT_GT(p.checks[0].serial_repeat.median_rel_diff, 0.005) << "the fake is as noisy as intended";
  EXPECT_TRUE(p.checks[0].passed);
  EXPECT_TRUE(p.checks[1].passed);
  EXPECT_EQ(p.pairs_per_round, 4);
}

// A serial repeat is a noisy estimate of how far apart two runs of a pair
// fall: each check is judged against the largest the run saw before it.
TEST(MapRun, EveryCheckKnowsTheLargestSerialRepeatTheRunSawBeforeIt) {
  test::FakeChipBackend chip(noisy_chip());
  const Options o = auto_checking_24_pairs();
  const MapResult r = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o, {});
  ASSERT_EQ(r.placements.size(), 2u);
  double seen = 0.0;
  for (const PlacementResult& p : r.placements)
    for (const SelfCheck& c : p.checks) {
      EXPECT_DOUBLE_EQ(c.earlier_serial_repeat, seen) << to_string(p.placement) << (c.pilot ? " pilot" : " map");
      seen = std::max(seen, c.serial_repeat.median_rel_diff);
    }
  EXPECT_GT(seen, 0.0) << "the fake is noisy";
}

TEST(MapRun, ConcurrentScheduleKeepsAFailedCheckAndSaysSo) {
  test::FakeChip spec;
  spec.crowded_above = 2;
  spec.crowding_penalty = 0.05;
  test::FakeChipBackend chip(spec);
  Options o = small_options();
  o.schedule = ScheduleKind::Concurrent;
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  const PlacementResult p = measure_placement_scheduled(chip, request_for(homes_run, o, chip.units(), 4), {}, {});
  EXPECT_EQ(p.pairs_per_round, 4);
  ASSERT_EQ(p.checks.size(), 1u);
  EXPECT_FALSE(p.checks[0].passed);
}

TEST(MapRun, AStopRequestEndsThePlacementInsideItsPlanKeepingWhatWasMeasured) {
  test::FakeChipBackend chip({});
  const Options o = small_options();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  // The stop comes once the map's first plan has begun: the backend sees it
  // after that plan's first round.
  const PlacementResult p = measure_placement(chip, request_for(homes_run, o, chip.units(), 4), {},
                                              [&] { return chip.measure_calls >= 2; });
  EXPECT_EQ(chip.measure_calls, 2) << "the serial sample before the map, class 0's plan, and no check after it";
  EXPECT_FALSE(p.complete);
  EXPECT_EQ(merge_maps(p.per_class, p.headline).pairs.size(), 4u) << "the round measured is kept";
  EXPECT_EQ(p.per_class.size(), 1u) << "class 1, never measured, has no map";
  EXPECT_TRUE(p.checks.empty());
}

TEST(MapRun, AResumedPlacementMeasuresOnlyWhatIsMissing) {
  test::FakeChipBackend chip({});
  const Options o = small_options();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  int asked = 0;
  const PlacementResult first =
      measure_placement(chip, request_for(homes_run, o, chip.units(), 1), {}, [&] { return ++asked > 3; });
  ASSERT_FALSE(first.complete);
  PlacementRequest again = request_for(homes_run, o, chip.units(), 1);
  again.already_measured = merge_maps(first.per_class, first.headline).pairs;
  ASSERT_EQ(again.already_measured.size(), 3u) << "serial: the three rounds before the stop";
  const std::size_t pairs_before = chip.pairs_measured;
  const PlacementResult rest = measure_placement(chip, again, {}, {});
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(merge_maps(rest.per_class, rest.headline).pairs.size(), 2u * 2u * 28u);
  EXPECT_EQ(chip.pairs_measured - pairs_before, 2u * 2u * 28u - 3u) << "only the pairs the first run lacked";
  const PlacementResult whole = measure_placement(chip, request_for(homes_run, o, chip.units(), 1), {}, {});
  EXPECT_EQ(rest.headline_ns.values.size(), whole.headline_ns.values.size());
  for (std::size_t i = 0; i < whole.headline_ns.values.size(); ++i) {
    const double x = whole.headline_ns.values[i], y = rest.headline_ns.values[i];
    EXPECT_TRUE((std::isnan(x) && std::isnan(y)) || x == y) << i;
  }
}

TEST(MapRun, AStopDuringAResumedRunKeepsTheEarlierRunsPairsOfEveryClass) {
  test::FakeChipBackend chip({});
  const Options o = small_options();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  const PlacementResult whole = measure_placement(chip, request_for(homes_run, o, chip.units(), 1), {}, {});
  // An earlier run measured one pair of each class; this one stops at once.
  PlacementRequest again = request_for(homes_run, o, chip.units(), 1);
  for (const LatencyMap& m : whole.per_class) again.already_measured.push_back(m.pairs.front());
  const PlacementResult stopped = measure_placement(chip, again, {}, [] { return true; });
  EXPECT_FALSE(stopped.complete);
  EXPECT_EQ(merge_maps(stopped.per_class, stopped.headline).pairs.size(), 2u) << "both classes' earlier pairs";
}

TEST(MapRun, SideGroupLayoutOrdersBySideThenGroup) {
  Topology t;
  t.groups = {{"G0", {0, 1, 2, 3}}, {"G1", {4, 5, 6, 7}}};
  const DisplayLayout d = side_group_layout(t, {0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 1, 0, 1, 0, 1, 0}, UnitOrder::Topology);
  EXPECT_EQ(d.order, (std::vector<int>{1, 3, 5, 7, 0, 2, 4, 6}));
  ASSERT_EQ(d.groups.groups.size(), 4u);
  EXPECT_EQ(d.groups.groups[0].name, "S0 G0");
  EXPECT_EQ(d.groups.groups[3].name, "S1 G1");
}

}  // namespace
}  // namespace cumap

namespace cumap {
namespace {

using test::measure_placement;

// A backend that reports a cluster barrier table with its measurements, as
// the CUDA backend's dsm path does.
class BarrierReportingChip final : public Backend {
 public:
  DeviceInfo device() const override { return chip_.device(); }
  std::vector<int> units() const override { return chip_.units(); }
  Capabilities capabilities() const override { return chip_.capabilities(); }
  Topology topology() override { return chip_.topology(); }
  LineLatencyTable probe_lines(const LineProbePlan& plan, const ProgressFn& progress) override {
    return chip_.probe_lines(plan, progress);
  }
  Measurements measure(const MeasurementPlan& plan, const ProgressFn& progress) override {
    Measurements m = chip_.measure(plan, progress);
    m.stats.cluster_barrier = {{2, 66, 400.0, 202.0}, {16, 7, 900.0, 454.5}};
    return m;
  }

 private:
  test::FakeChipBackend chip_{{}};
};

// The table reaches the placement's result, and from there cluster-barrier.csv.
TEST(MapRun, AClusterBarrierTableReachesThePlacementsResult) {
  BarrierReportingChip chip;
  const Options o = test::small_options();
  const RunHomes homes_run = discover_homes(chip, chip.units(), o, {});
  const PlacementResult p = measure_placement(chip, test::request_for(homes_run, o, chip.units(), 1), {}, {});
  ASSERT_EQ(p.stats.cluster_barrier.size(), 2u);
  EXPECT_EQ(p.stats.cluster_barrier[1].cluster_size, 16);
  EXPECT_DOUBLE_EQ(p.stats.cluster_barrier[1].median_ns, 454.5);
}

}  // namespace
}  // namespace cumap
