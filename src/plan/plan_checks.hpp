#pragma once
// The checks every backend applies to a plan before running it: plans are
// plain data, made by the planner or by a test, and a bad one must fail as
// bad input rather than on the device.
#include <map>
#include <span>
#include <string>
#include <vector>

#include "cumap/plan.hpp"

namespace cumap {

// The units a backend measures on each of its devices (ascending ids).
using UnitsByDevice = std::map<int, std::vector<int>>;

// Throws UsageError unless every unit is on a device of `available` and
// among its units, naming the first that is not.
void check_units_exist(std::span<const UnitRef> units, const UnitsByDevice& available, const std::string& unit_name);
// The same for every unit of the plan (its units and its pairs'), and every
// pair's flags on a device of `available`; and the plan's counts: round
// trips per pair that fit the flag values, counts not below 1. One device
// or several: a single-device backend passes {{device, its units}}.
void check_plan_units(const MeasurementPlan& plan, const UnitsByDevice& available, const std::string& unit_name);

// Every backend's check of a plan's pairs: throws UsageError unless every
// flag is an aligned word inside the arena, no pair is one unit or has both
// flags on one word, and no round uses a unit or a flag word in two pairs
// (the pairs of a round run at once: they would answer each other).
void check_plan_rounds(const MeasurementPlan& plan, const std::string& unit_name);

}  // namespace cumap
