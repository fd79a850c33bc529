#pragma once
// The serial self-check of a concurrent map (see SelfCheck in
// include/cumap/result.hpp): its sample, measured before the map, and the
// judgement after it. Internal to the map engine.
#include <cstdint>
#include <map>
#include <tuple>

#include "cumap/backend.hpp"
#include "cumap/result.hpp"

namespace cumap {

using PairKey = std::tuple<UnitRef, UnitRef, int, std::uint64_t, std::uint64_t>;  // a, b, flag device, flags

// Per-pair median round trip of every measurement that completed, in device
// cycles where the backend counts them, else in ns.
std::map<PairKey, double> pair_medians(const Measurements& measured);

// The sample, one pair a round, and its serial medians before the map.
struct SerialSample {
  MeasurementPlan plan;
  std::map<PairKey, double> before;
  // The largest disagreement (median |relative difference|) of two serial
  // runs the run measured before this check (its pilot's, an earlier
  // placement's checks'), 0 if none: more estimates of how far apart two runs
  // of a pair fall.
  double earlier_serial_repeat = 0.0;
};

// Judges the concurrent values `measured` against the mean of the sample's
// serial runs before (sample.before) and after (`after`) them, with `limit`
// as the allowed shift.
SelfCheck judge_serial_check(const SerialSample& sample, const std::map<PairKey, double>& after,
                             const Measurements& measured, int pairs_per_round, double limit);

}  // namespace cumap
