// The barrier and contention sweeps: participant sets by structure, the k
// sweep, counter lines by home, and the checks every backend makes of the plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "cumap/error.hpp"
#include "plan/sync_checks.hpp"
#include "plan/sync_plan.hpp"

namespace cumap {
namespace sync_plan_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

// Eight units, 0-3 near home class 0 and 4-7 near class 1 (100 ns near, 200
// far, a few ns apart line by line), in two GPCs across the sides; eight
// lines, even ones in class 0.
HomesResult two_sided_homes(int classes = 2) {
  HomesResult h;
  h.arena.bytes = 64 * 1024;
  for (int u = 0; u < 8; ++u) {
    h.unit_ids.push_back(u);
    h.table.units.push_back({0, u});
    h.classes.unit_side.push_back(classes == 2 ? u / 4 : 0);
  }
  for (int l = 0; l < 8; ++l) {
    h.table.lines.push_back(static_cast<std::uint64_t>(l) * 4224);
    h.classes.line_class.push_back(classes == 2 ? l % 2 : 0);
  }
  h.classes.class_count = classes;
  for (int u = 0; u < 8; ++u)
    for (int l = 0; l < 8; ++l) {
      const bool near = classes == 1 || h.classes.unit_side[u] == h.classes.line_class[l];
      h.table.ns.push_back((near ? 100.0 : 200.0) + l);
    }
  return h;
}

Topology two_gpcs() {
  Topology t;
  t.source = "test";
  t.groups = {{"GPC0", {0, 1, 4, 5}}, {"GPC1", {2, 3, 6, 7}}};
  return t;
}

const std::vector<int> kUnits{0, 1, 2, 3, 4, 5, 6, 7};
const std::vector<int> kSides{0, 0, 0, 0, 1, 1, 1, 1};

TEST(ParticipantSets, FollowTheSidesAndGroupsFound) {
  EXPECT_EQ(participant_order(ParticipantSet::OneSide, kUnits, kSides, two_gpcs()).units,
            (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(participant_order(ParticipantSet::Alternating, kUnits, kSides, two_gpcs()).units,
            (std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(participant_order(ParticipantSet::OneGroup, kUnits, kSides, two_gpcs()).units,
            (std::vector<int>{0, 1, 4, 5}));
  EXPECT_EQ(participant_order(ParticipantSet::Spread, kUnits, kSides, two_gpcs()).units,
            (std::vector<int>{0, 2, 1, 3, 4, 6, 5, 7}));
}

TEST(ParticipantSets, OneSideIsTheLargestSide) {
  EXPECT_EQ(participant_order(ParticipantSet::OneSide, {0, 1, 2}, {0, 1, 1}, Topology{}).units,
            (std::vector<int>{1, 2}));
}

TEST(ParticipantSets, SetsTheDeviceLacksAreLeftOutSayingWhy) {
  const std::vector<int> one_side(8, 0);
  const ParticipantOrder alternating = participant_order(ParticipantSet::Alternating, kUnits, one_side, two_gpcs());
  EXPECT_TRUE(alternating.units.empty());
  EXPECT_NE(alternating.left_out.find("one side"), std::string::npos) << alternating.left_out;
  const ParticipantOrder gpc = participant_order(ParticipantSet::OneGroup, kUnits, kSides, Topology{});
  EXPECT_TRUE(gpc.units.empty());
  EXPECT_NE(gpc.left_out.find("no groups"), std::string::npos) << gpc.left_out;
}

TEST(ParticipantSets, SpreadWithoutStructureKeepsEveryPrefixSpread) {
  const std::vector<int> order =
      participant_order(ParticipantSet::Spread, kUnits, std::vector<int>(8, 0), Topology{}).units;
  EXPECT_EQ(order, (std::vector<int>{0, 4, 2, 6, 1, 5, 3, 7}));
  // By sides where there are no groups.
  EXPECT_EQ(participant_order(ParticipantSet::Spread, kUnits, kSides, Topology{}).units,
            (std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7}));
}

TEST(KSweep, DoublesUpToTheSetAndEndsAtEveryUnit) {
  EXPECT_EQ(k_values(KSweep{}, 6, 2), (std::vector<int>{2, 4, 6}));
  EXPECT_EQ(k_values(KSweep{}, 8, 2), (std::vector<int>{2, 4, 8}));
  EXPECT_EQ(k_values(KSweep{}, 6, 1), (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(k_values(KSweep{}, 1, 2), (std::vector<int>{}));
}

TEST(KSweep, ExplicitValuesAreBoundedByTheSet) {
  EXPECT_EQ(k_values(KSweep{{1, 3, 10}, true, false}, 8, 2), (std::vector<int>{3, 8}));
  EXPECT_EQ(k_values(KSweep{{3, 10}, false, false}, 8, 2), (std::vector<int>{3}));
  EXPECT_EQ(k_values(KSweep{{}, true, false}, 5, 2), (std::vector<int>{5}));
}

TEST(CounterLines, NearIsTheParticipantsClassTypicalPairFirstAndFarTheOther) {
  const HomesResult h = two_sided_homes();
  const LineChoice near = counter_lines({0, 1}, CounterHome::Near, h);
  EXPECT_EQ(near.label, "near");
  EXPECT_EQ(near.home_class, 0);
  ASSERT_EQ(near.lines.size(), 8u);  // every line, the chosen class first
  // Class 0's lines by latency: 0, 2, 4, 6; in pairs, the typical (upper
  // middle) pair first, then the other; then class 1's, fastest first.
  const auto at = [](std::initializer_list<int> ls) {
    std::vector<std::uint64_t> out;
    for (int l : ls) out.push_back(static_cast<std::uint64_t>(l) * 4224);
    return out;
  };
  EXPECT_EQ(near.lines, at({4, 6, 0, 2, 1, 3, 5, 7}));
  const LineChoice far = counter_lines({0, 1}, CounterHome::Far, h);
  EXPECT_EQ(far.label, "far");
  EXPECT_EQ(far.home_class, 1);
  EXPECT_EQ(h.classes.line_class[far.lines[0] / 4224], 1);
  // The other side's near is this side's far.
  EXPECT_EQ(counter_lines({5, 6}, CounterHome::Near, h).home_class, 1);
  EXPECT_EQ(counter_lines({5, 6}, CounterHome::Far, h).home_class, 0);
}

// A launch per pair of lines: however many launches a case has, they are
// spread over the class's ranks, not its fastest lines.
TEST(CounterLines, AnyNumberOfLaunchesTakesLinesSpreadOverTheClass) {
  HomesResult h;
  h.arena.bytes = 1 << 20;
  h.unit_ids = {0};
  h.table.units = {{0, 0}};
  h.classes.unit_side = {0};
  h.classes.class_count = 1;
  for (int l = 0; l < 64; ++l) {
    h.table.lines.push_back(static_cast<std::uint64_t>(l) * 128);
    h.classes.line_class.push_back(0);
    h.table.ns.push_back(100.0 + l);  // line l is the l-th fastest
  }
  const LineChoice c = counter_lines({0}, CounterHome::Near, h);
  ASSERT_EQ(c.lines.size(), 64u);
  EXPECT_EQ(std::set<std::uint64_t>(c.lines.begin(), c.lines.end()).size(), 64u);
  // The lines of any number of launches average to the class's middle
  // (line 31.5): exactly, within a line, for an odd number; within half a
  // stratum for an even one.
  for (std::size_t launches = 1; launches <= 32; ++launches) {
    double sum = 0;
    for (std::size_t i = 0; i < 2 * launches; ++i) sum += static_cast<double>(c.lines[i] / 128);
    const double tolerance = launches % 2 == 1 ? 1.0 : 64.0 / (2.0 * launches) + 1.0;
    EXPECT_NEAR(sum / (2.0 * launches), 31.5, tolerance) << launches << " launch(es)";
  }
}

// Participants split evenly over the sides find both classes alike (here
// class 1 is 1 ns slower on average): the first participant's half decides,
// the same in every run, not the table's noise.
TEST(CounterLines, ClassesAlikeForTheParticipantsGoByTheFirstParticipant) {
  const HomesResult h = two_sided_homes();
  EXPECT_EQ(counter_lines({0, 4}, CounterHome::Near, h).home_class, 0);
  EXPECT_EQ(counter_lines({0, 4}, CounterHome::Far, h).home_class, 1);
  EXPECT_EQ(counter_lines({4, 0}, CounterHome::Near, h).home_class, 1);
  EXPECT_EQ(counter_lines({4, 0}, CounterHome::Far, h).home_class, 0);
  // Three of four on side 0: class 0 is nearer by far more than 1 %, whoever is first.
  EXPECT_EQ(counter_lines({4, 0, 1, 2}, CounterHome::Near, h).home_class, 0);
}

TEST(CounterLines, OneHomeClassMakesNearAndFarOneChoice) {
  const HomesResult h = two_sided_homes(1);
  EXPECT_EQ(counter_lines({0, 1}, CounterHome::Near, h).label, "any");
  EXPECT_EQ(counter_lines({0, 1}, CounterHome::Far, h).label, "any");
  EXPECT_EQ(counter_lines({0, 1}, CounterHome::Far, h).lines, counter_lines({0, 1}, CounterHome::Near, h).lines);
}

SyncOptions barrier_options(int launches = 1) {
  SyncOptions o;
  o.episodes = 10;
  o.warmup = 2;
  o.launches = launches;
  return o;
}

TEST(PlanSync, EveryCaseIsLabelledAndPassesTheBackendsCheck) {
  const HomesResult h = two_sided_homes();
  const PlannedSync p = plan_sync(barrier_options(), h, two_gpcs());
  ASSERT_EQ(p.plan.cases.size(), p.labels.size());
  ASSERT_FALSE(p.plan.cases.empty());
  for (std::size_t i = 0; i < p.plan.cases.size(); ++i) {
    const SyncCase& c = p.plan.cases[i];
    EXPECT_EQ(c.tag, static_cast<int>(i));
    EXPECT_EQ(c.participants.size(), static_cast<std::size_t>(p.labels[i].k));
    EXPECT_EQ(c.episodes, 10);
  }
  EXPECT_NO_THROW(check_sync_plan(p.plan, {{0, kUnits}}, "SM"));
  // Every set exists on this chip, and the platform's barrier, which keeps
  // its own state, is planned once per set and k, with no home of ours.
  std::set<std::string> sets;
  for (const SyncCaseLabel& l : p.labels) sets.insert(l.set);
  EXPECT_EQ(sets, (std::set<std::string>{"one-side", "alternating", "one-gpc", "spread"}));
  for (std::size_t i = 0; i < p.labels.size(); ++i)
    if (p.plan.cases[i].impl == BarrierImpl::Platform) {
      EXPECT_EQ(p.labels[i].counter_home, "own");
    }
}

TEST(PlanSync, EachLaunchOfACaseHasLinesOfItsOwnInTheSameHomesAndTheLaunchesComeLaunchMajor) {
  const HomesResult h = two_sided_homes();  // 4 lines per home class
  SyncOptions o = barrier_options(2);
  o.impls = {BarrierImpl::Counter, BarrierImpl::Flag};
  o.sets = {ParticipantSet::OneSide};
  o.k = KSweep{{2}, false, false};
  const PlannedSync p = plan_sync(o, h, two_gpcs());
  ASSERT_EQ(p.labels.size(), 4u) << "counter and flag, near and far";
  ASSERT_EQ(p.plan.cases.size(), 2u * p.labels.size());
  for (std::size_t i = 0; i < p.plan.cases.size(); ++i)
    EXPECT_EQ(p.plan.cases[i].tag, static_cast<int>(i % p.labels.size())) << "launch-major: every label, then again";
  const auto class_of = [&](std::uint64_t offset) { return h.classes.line_class[offset / 4224]; };
  for (std::size_t t = 0; t < p.labels.size(); ++t) {
    const SyncCase& first = p.plan.cases[t];
    const SyncCase& second = p.plan.cases[t + p.labels.size()];
    EXPECT_EQ(first.participants, second.participants);
    EXPECT_NE(first.counter, second.counter) << "each launch on a counter line of its own";
    EXPECT_EQ(std::set<std::uint64_t>({first.counter, first.release, second.counter, second.release}).size(), 4u);
    for (std::uint64_t line : {first.counter, first.release, second.counter, second.release})
      EXPECT_EQ(class_of(line), p.labels[t].counter_class) << "every launch's lines in the case's home";
  }
  // Three launches of two lines each do not fit a class of 4 lines: the
  // third takes the first one's lines again, not the other class's.
  const PlannedSync three = plan_sync(barrier_options(3), h, two_gpcs());
  const std::size_t labels = three.labels.size();
  for (std::size_t t = 0; t < labels; ++t) {
    if (three.labels[t].counter_class < 0) continue;  // the platform's own
    const SyncCase& third = three.plan.cases[t + 2 * labels];
    EXPECT_EQ(class_of(third.counter), three.labels[t].counter_class);
    EXPECT_EQ(class_of(third.release), three.labels[t].counter_class);
  }
}

TEST(PlanSync, TwoLevelGroupsBySideWithEachGroupsLinesNearIt) {
  const HomesResult h = two_sided_homes();
  SyncOptions o = barrier_options();
  o.impls = {BarrierImpl::TwoLevel};
  o.sets = {ParticipantSet::Alternating};
  o.homes = {CounterHome::Near};
  o.k = KSweep{{4}, false, false};
  const PlannedSync p = plan_sync(o, h, two_gpcs());
  ASSERT_EQ(p.plan.cases.size(), 1u);
  const SyncCase& c = p.plan.cases[0];
  // Participants 0, 4, 1, 5: groups by side, numbered as they appear.
  EXPECT_EQ(c.group_of, (std::vector<int>{0, 1, 0, 1}));
  ASSERT_EQ(c.group_counter.size(), 2u);
  EXPECT_EQ(p.labels[0].groups, 2);
  EXPECT_EQ(p.labels[0].grouped_by, "side");
  for (int g = 0; g < 2; ++g) {
    EXPECT_EQ(h.classes.line_class[c.group_counter[g] / 4224], g) << "group " << g << "'s counter is near it";
    EXPECT_EQ(h.classes.line_class[c.group_release[g] / 4224], g);
  }
  std::set<std::uint64_t> lines{c.counter, c.release};
  lines.insert(c.group_counter.begin(), c.group_counter.end());
  lines.insert(c.group_release.begin(), c.group_release.end());
  EXPECT_EQ(lines.size(), 6u) << "every word of the case in a line of its own";
}

TEST(PlanSync, TwoLevelFallsBackToGroupsWithinOneSideAndIsLeftOutWithNeither) {
  const HomesResult h = two_sided_homes();
  SyncOptions o = barrier_options();
  o.impls = {BarrierImpl::TwoLevel};
  o.sets = {ParticipantSet::OneSide};  // 0, 1, 2, 3: one side, GPC0 and GPC1
  o.homes = {CounterHome::Near};
  const PlannedSync p = plan_sync(o, h, two_gpcs());
  // k = 2 (units 0, 1: one side, one GPC) is left out; k = 4 groups by GPC.
  ASSERT_EQ(p.plan.cases.size(), 1u);
  EXPECT_EQ(p.labels[0].k, 4);
  EXPECT_EQ(p.labels[0].grouped_by, "group");
  EXPECT_EQ(p.plan.cases[0].group_of, (std::vector<int>{0, 0, 1, 1}));
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("one-side at k=2"), std::string::npos) << p.notes[0];
}

TEST(PlanSync, OneHomeClassMeasuresNearAndFarOnceAsAny) {
  const HomesResult h = two_sided_homes(1);
  SyncOptions o = barrier_options();
  o.impls = {BarrierImpl::Counter};
  o.sets = {ParticipantSet::OneSide, ParticipantSet::Spread};
  const PlannedSync p = plan_sync(o, h, Topology{});
  // one-side is every unit by id; spread every unit spread: both kept.
  for (const SyncCaseLabel& l : p.labels) EXPECT_EQ(l.counter_home, "any");
  EXPECT_EQ(p.plan.cases.size(), 2u * 3u) << "k 2, 4, 8 for each set, once each";
}

TEST(PlanSync, ASetThatRepeatsAnotherIsLeftOut) {
  // Two units, one side, no groups: every set is the units by id.
  HomesResult h = two_sided_homes(1);
  h.unit_ids = {0, 1};
  h.table.units = {{0, 0}, {0, 1}};
  h.classes.unit_side = {0, 0};
  h.table.ns.resize(2 * 8);
  SyncOptions o = barrier_options();
  o.sets = {ParticipantSet::OneSide, ParticipantSet::Spread};
  const PlannedSync p = plan_sync(o, h, Topology{});
  for (const SyncCaseLabel& l : p.labels) EXPECT_EQ(l.set, "one-side");
  ASSERT_FALSE(p.notes.empty());
  EXPECT_NE(p.notes[0].find("spread: the same units in the same order as one-side"), std::string::npos) << p.notes[0];
}

TEST(PlanSync, ContentionStartsAtOneUnitWithACounterPerOperation) {
  const HomesResult h = two_sided_homes();
  SyncOptions o = barrier_options();
  o.contention = true;
  o.sets = {ParticipantSet::OneSide};
  const PlannedSync p = plan_sync(o, h, two_gpcs());
  // k 1, 2, 4 x cas, add x near, far.
  ASSERT_EQ(p.plan.cases.size(), 3u * 2u * 2u);
  EXPECT_EQ(p.labels.front().k, 1);
  EXPECT_TRUE(p.plan.cases.front().contention);
  EXPECT_EQ(p.plan.cases[0].op, ContentionOp::Cas);
  EXPECT_EQ(p.plan.cases[2].op, ContentionOp::Add);
}

TEST(PlanSync, NothingToMeasureIsBadInputSayingWhy) {
  HomesResult h = two_sided_homes(1);
  SyncOptions o = barrier_options();
  o.sets = {ParticipantSet::Alternating};
  try {
    plan_sync(o, h, Topology{});
    FAIL() << "a plan of no case was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("alternating"), std::string::npos) << e.what();
  }
}

SyncPlan one_case_plan(SyncCase c) {
  SyncPlan plan;
  c.participants = c.participants.empty() ? std::vector<UnitRef>{{0, 0}, {0, 1}} : c.participants;
  plan.cases.push_back(std::move(c));
  return plan;
}

TEST(CheckSyncPlan, RefusesWhatNoBackendCanRun) {
  const UnitsByDevice units{{0, {0, 1, 2}}};
  SyncCase twice;
  twice.participants = {{0, 1}, {0, 1}};
  EXPECT_THROW(check_sync_plan(one_case_plan(twice), units, "SM"), UsageError);
  SyncCase missing;
  missing.participants = {{0, 0}, {0, 7}};
  EXPECT_THROW(check_sync_plan(one_case_plan(missing), units, "SM"), UsageError);
  SyncCase one_line;
  one_line.impl = BarrierImpl::Flag;
  one_line.release = 64;  // the counter's own line
  EXPECT_THROW(check_sync_plan(one_case_plan(one_line), units, "SM"), UsageError);
  SyncCase outside;
  outside.counter = 64 * 1024;
  EXPECT_THROW(check_sync_plan(one_case_plan(outside), units, "SM"), UsageError);
  SyncCase groupless;
  groupless.impl = BarrierImpl::TwoLevel;
  groupless.group_of = {0, 1};
  groupless.group_counter = {256};
  groupless.group_release = {384};
  EXPECT_THROW(check_sync_plan(one_case_plan(groupless), units, "SM"), UsageError);
  SyncPlan mbarrier = one_case_plan(SyncCase{});
  mbarrier.probe = Probe::Mbarrier;
  EXPECT_THROW(check_sync_plan(mbarrier, units, "SM"), UsageError);
  EXPECT_NO_THROW(check_sync_plan(one_case_plan(SyncCase{}), units, "SM"));
}

}  // namespace
}  // namespace cumap
