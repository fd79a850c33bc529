#include <string>

#include <gtest/gtest.h>

#include "cumap/backend.hpp"
#include "plan/plan_checks.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

PlannedPair pair_on(int a, int b, std::uint64_t first, std::uint64_t second, int flag_device = 0) {
  return {{0, a}, {0, b}, {first, second, flag_device}, 0};
}

// The message of the UsageError `plan` makes check_plan_rounds throw; empty if none.
std::string rounds_error(const MeasurementPlan& plan) {
  try {
    check_plan_rounds(plan, "SM");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(PlanChecks, DisjointRoundsPass) {
  MeasurementPlan plan;
  plan.rounds = {{{pair_on(0, 1, 0, 4), pair_on(2, 3, 128, 132)}}, {{pair_on(0, 2, 0, 4), pair_on(1, 3, 128, 132)}}};
  EXPECT_EQ(rounds_error(plan), "");
}

TEST(PlanChecks, AUnitInTwoPairsOfARoundIsNamed) {
  MeasurementPlan plan;
  plan.rounds = {{{pair_on(0, 1, 0, 4)}}, {{pair_on(5, 1, 0, 4), pair_on(2, 5, 128, 132)}}};
  EXPECT_EQ(rounds_error(plan), "plan: round 1 uses SM 5 in two pairs");
}

// The rounds are checked on every core; the error is still the first
// round's, whichever core met a bad round first.
TEST(PlanChecks, AmongManyBadRoundsTheFirstIsNamed) {
  MeasurementPlan plan;
  plan.units = {{0, 0}, {0, 1}, {0, 2}, {0, 3}};
  for (int r = 0; r < 4000; ++r) plan.rounds.push_back({{pair_on(0, 1, 0, 4), pair_on(2, 3, 128, 132)}});
  for (const std::size_t bad : {3999u, 2500u, 1700u}) plan.rounds[bad] = {{pair_on(0, 1, 0, 4), pair_on(1, 3, 128, 132)}};
  EXPECT_EQ(rounds_error(plan), "plan: round 1700 uses SM 1 in two pairs");
  plan.rounds[1700] = plan.rounds[0];
  plan.rounds[900] = {{pair_on(0, 9, 0, 4)}};
  plan.rounds[3000] = {{pair_on(0, 8, 0, 4)}};
  try {
    check_plan_units(plan, {{0, {0, 1, 2, 3}}}, "SM");
    ADD_FAILURE() << "SMs 8 and 9 do not exist";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("SM 9 does not exist"), std::string::npos) << e.what();
  }
}

TEST(PlanChecks, AFlagWordInTwoPairsOfARoundIsNamed) {
  MeasurementPlan plan;
  plan.rounds = {{{pair_on(0, 1, 0, 4), pair_on(2, 3, 4, 132)}}};
  EXPECT_EQ(rounds_error(plan), "plan: round 0 uses the flag word at byte 4 of device 0 twice");
}

// Every device has a flag arena of its own: byte 4 of one is not byte 4 of another.
TEST(PlanChecks, TheSameFlagOffsetOnTwoDevicesIsTwoWords) {
  MeasurementPlan plan;
  plan.rounds = {{{pair_on(0, 1, 0, 4, 0), pair_on(2, 3, 0, 4, 1)}}};
  EXPECT_EQ(rounds_error(plan), "");
}

TEST(PlanChecks, APairOnOneUnitOrOneWordIsAnError) {
  MeasurementPlan one_unit;
  one_unit.rounds = {{{pair_on(3, 3, 0, 4)}}};
  EXPECT_EQ(rounds_error(one_unit), "plan: pair 3-3 is one SM");
  MeasurementPlan one_word;
  one_word.rounds = {{{pair_on(3, 4, 8, 8)}}};
  EXPECT_EQ(rounds_error(one_word), "plan: pair 3-4 has both flags on one word");
}

TEST(PlanChecks, AFlagOutsideTheArenaOrMisalignedIsNamed) {
  MeasurementPlan plan;
  plan.arena.bytes = 4096;
  plan.rounds = {{{pair_on(0, 1, 0, 4094)}}};
  EXPECT_EQ(rounds_error(plan), "plan: the flag at byte 4094 of pair 0-1 is not an aligned word of the 4096-byte flag arena");
  plan.rounds = {{{pair_on(0, 1, 4092, 4096)}}};
  EXPECT_EQ(rounds_error(plan), "plan: the flag at byte 4096 of pair 0-1 is not an aligned word of the 4096-byte flag arena");
  plan.rounds = {{{pair_on(0, 1, 0, 4092)}}};
  EXPECT_EQ(rounds_error(plan), "");
}

TEST(PlanChecks, TheSameUnitIdOnTwoDevicesIsTwoUnits) {
  MeasurementPlan plan;
  plan.rounds = {{{{{0, 7}, {1, 7}, {0, 4}, 0}}}};
  EXPECT_EQ(rounds_error(plan), "");
}

TEST(PlanChecks, PairUnitsMustBeOnTheDevice) {
  MeasurementPlan plan;
  plan.units = {{0, 0}, {0, 1}};
  plan.rounds = {{{pair_on(0, 9, 0, 4)}}};
  EXPECT_THROW(check_plan_units(plan, {{0, {0, 1}}}, "SM"), UsageError);
  plan.rounds = {{{pair_on(0, 1, 0, 4)}}};
  EXPECT_NO_THROW(check_plan_units(plan, {{0, {0, 1}}}, "SM"));
  // A single-device backend cannot reach flags in another device's memory.
  plan.rounds = {{{pair_on(0, 1, 0, 4, 1)}}};
  EXPECT_THROW(check_plan_units(plan, {{0, {0, 1}}}, "SM"), UsageError);
}

// Several devices, as the CUDA backend across GPUs checks: each unit against
// its own device's units, and flags on any of them.
TEST(PlanChecks, AcrossDevicesEachUnitIsCheckedOnItsOwnDevice) {
  const UnitsByDevice two{{0, {0, 1}}, {1, {0, 1, 2}}};
  MeasurementPlan plan;
  plan.units = {{0, 1}, {1, 2}};
  plan.rounds = {{{{{0, 1}, {1, 2}, {0, 4, 1}, 0}}}};  // flags on device 1
  EXPECT_NO_THROW(check_plan_units(plan, two, "SM"));
  plan.units = {{0, 2}};  // SM 2 exists on device 1 only
  EXPECT_THROW(check_plan_units(plan, two, "SM"), UsageError);
  plan.units = {{2, 0}};  // no device 2
  EXPECT_THROW(check_plan_units(plan, two, "SM"), UsageError);
  plan.units = {};
  plan.rounds = {{{{{0, 1}, {1, 2}, {0, 4, 2}, 0}}}};  // flags on device 2
  EXPECT_THROW(check_plan_units(plan, two, "SM"), UsageError);
}

TEST(PlanChecks, ALineProbesUnitsAloneAreChecked) {
  EXPECT_NO_THROW(check_units_exist(std::vector<UnitRef>{{0, 1}}, {{0, {0, 1}}}, "SM"));
  EXPECT_THROW(check_units_exist(std::vector<UnitRef>{{0, 5}}, {{0, {0, 1}}}, "SM"), UsageError);
}

}  // namespace
}  // namespace cumap
