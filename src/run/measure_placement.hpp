#pragma once
// The steps of a map run over the Backend interface: find the flag lines'
// homes, then measure one placement over every home class, choosing how many
// pairs run at once and checking a concurrent map against serial
// re-measurement. Plain C++: tested with a fake backend.
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cumap/backend.hpp"
#include "cumap/options.hpp"
#include "cumap/result.hpp"

namespace cumap {

// Asked between plans, and handed to the backend in every plan
// (MeasurementPlan::stop), which may ask it inside one from its own threads:
// true stops the run at the next safe point (what was measured so far is
// kept; a pair cut short is left out). It must be safe to call from any thread.
using StopFn = std::function<bool()>;

// A placement's class maps, once made: on the thread that made them, while
// the measuring goes on; the maps are final and stay where they are.
using ClassMapsFn = std::function<void(Placement, std::span<const LatencyMap> per_class)>;

// What start_placement needs besides the backend.
struct PlacementRequest {
  Placement placement = Placement::SameLine;
  std::vector<int> units;
  const RunHomes* homes = nullptr;
  int lines_per_class = 1;
  int cross_lines = 1;  // lines per class of a pair across devices (in passes 0..cross_lines-1)
  // And its samples and untimed round trips on each line; unset: the map's own.
  std::optional<int> cross_samples;
  std::optional<int> cross_warmup;
  int iters = Options::kDefaultIters;  // round trips per sample
  int pairs_per_round = 1;  // 1: the serial schedule (row-major); more: round-robin rounds
  std::map<int, int> exclusive_key;
  const Options* options = nullptr;
  // --resume: pairs an earlier run of this placement measured (pairs.csv);
  // only the others are measured, and these join the maps as they are.
  std::vector<PairStats> already_measured;
  // Capabilities::measures_on_host_cores: summarize each class only once the
  // measuring is done, never beside it.
  bool measures_on_host_cores = false;
  // The largest serial repeat (two serial runs of a check's sample, median
  // |relative difference|) the run has seen so far, 0 before any: every
  // check of this placement is judged against at least it (SerialSample).
  double earlier_serial_repeat = 0.0;
  // --schedule auto: an earlier placement's map passed its own check at
  // pairs_per_round, so this one is measured there without a pilot; its own
  // check still decides (a failure measures it again at half).
  bool concurrency_settled = false;
  ClassMapsFn class_maps_made;  // may be empty
};

// A placement measured and checked whose maps are still being summarized
// on another thread, beside whatever the caller measures next.
class PendingPlacement {
 public:
  PendingPlacement(std::shared_ptr<PlacementResult> result, std::future<void> summaries)
      : result_(std::move(result)), summaries_(std::move(summaries)) {}
  // What measuring and checking wrote: placement, complete, pairs_per_round,
  // checks, stats and seconds (all but the summaries' wait). The maps are
  // being written meanwhile: read nothing else before finish().
  PlacementResult& measured() { return *result_; }
  // Waits for the maps (the wait counted in seconds.summaries) and hands
  // over the whole result.
  PlacementResult finish() &&;

 private:
  std::shared_ptr<PlacementResult> result_;
  std::future<void> summaries_;
};

// Measures every pair of `units` on `lines_per_class` lines of every home
// class, one plan per class (its passes in turn; every backend asks the stop
// request inside a plan, between launches at the latest: once it says true
// the placement returns what it has, with `complete` false), under
// options.schedule: serial runs once at one pair per round; concurrent once
// at request.pairs_per_round; auto first runs pilots (only the map's rounds
// that hold the check sample, between two serial runs of it), halving the
// concurrency until one passes the serial check (see SelfCheck), then
// measures the map once at that concurrency; should the map's own check
// fail, it is measured again at half of it, down to serial. A concurrent
// placement re-measures a sample serially and records the agreement in
// `checks`, pilots' first. Returns as soon as the placement is measured and
// checked: its maps are summarized while the caller goes on (a map's next
// placement).
PendingPlacement start_placement(Backend& backend, PlacementRequest request, const ProgressFn& progress,
                                 const StopFn& stop);

}  // namespace cumap
