#pragma once
// The checks every backend applies to a plan before running it: plans are
// plain data, made by the planner or by a test, and a bad one must fail as
// bad input rather than on the device.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
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

// What a GPU runtime says of an address a caller hands in for a line probe
// (LineProbePlan::memory): cudaPointerGetAttributes, hipPointerGetAttribute.
enum class MemoryKind { Device, Managed, Host, Unknown };
struct MemoryFacts {
  MemoryKind kind = MemoryKind::Unknown;
  int device = -1;
};
// Only device memory of the GPU whose lines are probed has lines with a
// fixed home: throws UsageError for any other, in one wording for every GPU
// backend, naming `runtime` ("CUDA") and what to allocate with
// (`allocator`: "cudaMalloc").
void check_callers_memory(const MemoryFacts& facts, std::uintptr_t address, int gpu, std::string_view runtime,
                          std::string_view allocator);

}  // namespace cumap
