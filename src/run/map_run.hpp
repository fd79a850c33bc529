#pragma once
// The steps of a map (and of `cumap homes`) from options to results, each
// returning what it found: open the backend and choose the units, resolve
// the settings, then measure_map: the homes, the layout, the placements.
// The CLI strings them together and hands the MapResult to the reporters.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cumap/backend.hpp"
#include "cumap/options.hpp"
#include "cumap/result.hpp"
#include "run/measure_placement.hpp"

namespace cumap {

// The units to map: all of `available`, or the --units subset of it.
std::vector<int> resolve_units(const std::string& spec, const std::vector<int>& available,
                               const std::string& unit_name);

// The GPUs --devices names, resolved against the backend's device count
// ("all", "0,1", "0-3"); empty without --devices. UsageError for a GPU
// that does not exist.
std::vector<int> resolve_devices(const Options& options);

// An open backend, what it says of itself, and the units the run maps.
struct OpenedBackend {
  std::unique_ptr<Backend> backend;
  DeviceInfo device;
  Capabilities capabilities;
  std::vector<int> units;  // the --units choice among its units, ascending
  // The GPU the run is on: --device, or the one GPU --devices names (which
  // then stands for --device in everything that follows).
  int device_index = 0;
  // Why --backend auto chose it, where that is not what a user likely
  // expected (make_backend); empty otherwise.
  std::string backend_choice;
};

// Opens the backend the options select (across the GPUs of --devices).
// UsageError for a backend, GPU or unit that does not exist, for fewer
// than two units when `min_units` asks for a map, and for the hip backend's
// options (--max-streams, --unit wgp) when the backend opened is another.
OpenedBackend open_backend(const Options& options, std::size_t min_units = 1);

// The options resolved against what the backend can do: lines per class and
// round trips per sample (the user's or the backend's defaults), the
// placements measured, and every option as given. UsageError, before
// anything is measured, for options the backend lacks.
MapSettings map_settings(const Options& options, const DeviceInfo& device, const Capabilities& capabilities);

// A map with no placement, homes and layout only (`cumap homes`, and the
// discovery before barriers and contention): the colormap and --out of
// `options`, and `recorded` as the options meta.json records.
MapSettings discovery_settings(const Options& options, nlohmann::json recorded);

// Told as a map goes (each member may be left empty): `progress(phase)`
// gives the progress callback of a phase ("homes", then each placement),
// `phase_done(phase)` says it ended ("homes", "topology", each placement),
// `homes_found` sees the homes before any pair is measured (and may refuse
// them by throwing), `placement_done` sees each placement's result.
struct MapObserver {
  std::function<ProgressFn(const std::string& phase)> progress;
  std::function<void(const std::string& phase)> phase_done;
  std::function<void(const RunHomes&)> homes_found;
  // Once a placement is measured and checked, before its maps are made (they
  // are made while the next placement is measured): read only its
  // placement, complete, pairs_per_round and checks.
  std::function<void(const PlacementResult&)> placement_done;
  // Once a placement's class maps are made (while the next placement is
  // measured), on the thread that made them (PlacementRequest::class_maps_made).
  ClassMapsFn class_maps_made;
};

// Pairs an earlier run measured, by placement (--resume): only the others
// are measured, and these join the maps as they are.
using MeasuredPairs = std::map<Placement, std::vector<PairStats>>;

// A whole map over `units` of an open backend: the homes (unless the flags
// are in shared memory), the layout, then every placement of `settings`
// (`cumap homes` asks for none);
// the concurrency `auto` settles on in the first placement is where the
// others start. Ends early once `stop` says so, keeping what was measured
// (`interrupted` set). Everything but `run` (the command's clock and
// command line) is filled.
MapResult measure_map(Backend& backend, const std::vector<int>& units, const MapSettings& settings,
                      const Options& options, const MapObserver& observer = {}, const StopFn& stop = {},
                      const MeasuredPairs& already_measured = {});

}  // namespace cumap
