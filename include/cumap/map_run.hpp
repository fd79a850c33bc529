#pragma once
// The steps of a map run over the Backend interface: find the flag lines'
// homes, then measure one placement over every home class, choosing how many
// pairs run at once and checking a concurrent map against serial
// re-measurement. Plain C++: tested with a fake backend.
#include <functional>
#include <string>
#include <vector>

#include "cumap/backend.hpp"
#include "cumap/map_result.hpp"
#include "cumap/options.hpp"

namespace cumap {

// Asked between plans: true stops the run at the next safe point (what was
// measured so far is kept).
using StopFn = std::function<bool()>;

// Per device of `units` (ids below kDeviceUnitStride are on options.device):
// probes `options.home_lines` lines of its flag arena, moved by
// `options.flag_offset`, from each of its units, and classifies them.
RunHomes discover_homes(Backend& backend, const std::vector<int>& units, const Options& options,
                        const ProgressFn& progress);

// What measure_placement needs besides the backend.
struct PlacementRequest {
  Placement placement = Placement::SameLine;
  std::vector<int> units;
  const RunHomes* homes = nullptr;
  int lines_per_class = 1;
  int iters = Options::kDefaultIters;  // round trips per sample
  int pairs_per_round = 1;  // 1: the serial schedule (row-major); more: round-robin rounds
  std::map<int, int> exclusive_key;
  const Options* options = nullptr;
  // --resume: pairs an earlier run of this placement measured (pairs.csv);
  // only the others are measured, and these join the maps as they are.
  std::vector<PairStats> already_measured;
};

// Measures every pair of `units` on `lines_per_class` lines of every home
// class, one plan per (class, pass) so that a stop request is honoured within
// one pass: then it returns what it has, with `complete` false. With
// pairs_per_round > 1 a complete placement re-measures a sample serially and
// records the agreement in `checks` (one entry).
PlacementResult measure_placement(Backend& backend, const PlacementRequest& request, const ProgressFn& progress,
                                  const StopFn& stop);

// measure_placement under options.schedule: serial runs once at one pair per
// round; concurrent once at request.pairs_per_round; auto first runs pilots
// (only the map's rounds that hold the check sample, between two serial runs
// of it), halving the concurrency until one passes the serial check (see
// SelfCheck), then measures the map once at that concurrency; should the
// map's own check fail, it is measured again at half of it, down to serial.
// Every check, pilots first, is in `checks`.
PlacementResult measure_placement_scheduled(Backend& backend, PlacementRequest request, const ProgressFn& progress,
                                            const StopFn& stop);

// The display order that reads the same on every chip: by device (ids by
// unit_id()), by side (the home class of its device a unit is near), then by
// topology group, then by id; and the groups to draw as separators ("S0
// GPC1", "g1 S0 GPC1" across devices). Without sides or groups, what exists.
struct DisplayLayout {
  std::vector<int> order;
  Topology groups;
};
DisplayLayout side_group_layout(const Topology& topology, const std::vector<int>& units,
                                const std::vector<int>& unit_side, UnitOrder order);

}  // namespace cumap
