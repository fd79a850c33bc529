#pragma once
#include <memory>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/resumed_run.hpp"
#include "cli/run_clock.hpp"
#include "cumap/backend.hpp"
#include "cumap/result.hpp"
#include "run/measure_placement.hpp"

namespace cumap::cli {

// The units to map: all of `available`, or the --units subset of it.
std::vector<int> resolve_units(const std::string& spec, const std::vector<int>& available,
                               const std::string& unit_name);

// The GPUs --devices names, resolved against the backend's device count
// ("all", "0,1", "0-3"); empty without --devices. UsageError for a GPU
// that does not exist.
std::vector<int> resolve_devices(const Options& options);

// The first step of a map and of `cumap homes`: opens the selected backend
// (across the GPUs of --devices; with one, it becomes options.device),
// records its identity and capabilities in `result`, and sets `units` to the
// --units choice among its units (sorted).
std::unique_ptr<Backend> open_backend(Options& options, MapResult& result, std::vector<int>& units);

// The next step, and all that `cumap homes` measures: the flag lines' homes
// from `units` (with progress; phase "homes"), then the units' topology and
// the display order by side (phase "topology": on cuda it launches clusters).
void find_homes_and_layout(Backend& backend, const std::vector<int>& units, const Options& options,
                           MapResult& result, RunClock& clock);

// The measurement itself, after find_homes_and_layout: every placement (one
// on the dsm path) over `units`, each a phase of `clock`, the concurrency
// `auto` settles on in the first kept for the others; lines per class and
// round trips per sample from `options` or else the backend's defaults
// (recorded in `result`), then the structure table. Ends early once `stop`
// says so, keeping what was measured. `resumed`: the pairs a run being
// completed has already (nullptr: none).
void measure_map(Backend& backend, const std::vector<int>& units, const Options& options, MapResult& result,
                 RunClock& clock, const StopFn& stop, const ResumedRun* resumed);

}  // namespace cumap::cli
