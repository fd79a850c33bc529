#include "cli/commands.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string>

#include <fmt/format.h>

#include "cli/interrupt.hpp"
#include "cli/open_device.hpp"
#include "cli/progress.hpp"
#include "cli/resumed_run.hpp"
#include "cli/run_clock.hpp"
#include "cumap/error.hpp"
#include "render/render.hpp"
#include "core/map_result.hpp"
#include "core/run_summary.hpp"
#include "publish/output_set.hpp"
#include "report/map_outputs.hpp"
#include "report/pairs_csv.hpp"
#include "report/summary_line.hpp"
#include "run/home_discovery.hpp"
#include "run/map_run.hpp"

namespace cumap::cli {
namespace {

void report_timeouts(const MapResult& r, const Options& o) {
  for (const PlacementResult& p : r.placements) {
    const auto late = p.timed_out();
    if (late.empty()) continue;
    if (no_pair_completed(p)) {
      fmt::print(stderr, "cumap: {}: no pair completed: all {} measurement(s) timed out (--timeout-ms {:g})\n",
                 r.settings.has_homes() ? to_string(p.placement) : "dsm", late.size(), o.timeout_ms);
      continue;
    }
    std::string list;
    for (std::size_t i = 0; i < late.size() && i < 20; ++i) list += fmt::format(" {}-{}", late[i].a, late[i].b);
    if (late.size() > 20) list += fmt::format(" (and {} more)", late.size() - 20);
    fmt::print(stderr, "cumap: {}: {} measurement(s) of {} pairs timed out:{} (see meta.json)\n",
               to_string(p.placement), late.size(), r.device.unit_name, list);
  }
}

// The placement's self-checks in summary.md's words (meta.json has their numbers).
void report_checks(const PlacementResult& placement) {
  if (placement.checks.empty()) return;  // nothing was checked; the warnings say so where it matters
  RunSummary::Map map;
  map.pairs_per_round = placement.pairs_per_round;
  map.checks = placement.checks;
  fmt::print(stderr, "cumap: {}: {}\n", to_string(placement.placement), check_words(map));
}

// Other compute processes on the run's GPUs share their L2 and interconnect.
void warn_of_neighbours(const DeviceInfo& device) {
  for (const DeviceInfo::Neighbours& n : device.neighbours)
    if (n.known && !n.processes.empty())
      fmt::print(stderr, "cumap: warning: {} other compute process(es) on GPU {}; they can change the map\n",
                 n.processes.size(), n.pci_bus_id);
}

}  // namespace

int run_map(const MapCommand& command) {
  Options o = command.options;
  std::optional<ResumedRun> resumed;
  if (!o.resume_dir.empty()) {
    resumed = load_resumed_run(o.resume_dir);
    // The earlier run's options; those typed here must agree with them.
    o = resumed_options(*resumed, o, command.typed);
    if (resumed->complete()) {
      // Nothing to measure: the files stay exactly as they are.
      if (!o.quiet) fmt::print("cumap: the run in {} is complete; nothing to measure\n", o.resume_dir.string());
      return kExitOk;
    }
  }
  // The heatmaps are drawn after the measuring: their font is checked before it.
  check_heatmap_font();
  RunInfo run;
  RunClock clock(run);
  OpenedBackend opened = open_measured_device(o, 2);
  run.backend_choice = opened.backend_choice;
  const MapSettings settings = map_settings(o, opened.device, opened.capabilities);
  if (resumed) check_resumed_pairs(*resumed, opened.units, settings, o);

  OutputSet out(o.out_dir, OutputKind::Map, o.replace);
  if (!o.quiet) warn_of_neighbours(opened.device);
  // From here the first Ctrl-C (or SIGTERM, SIGHUP) ends the run at the next
  // pass and writes what it has; a second one leaves at once.
  InterruptHandler interrupt;
  const StopFn stop = [&] { return interrupt.stop_requested(); };
  clock.end_phase("open");

  MeasuredPairs already_measured;
  if (resumed)
    for (Placement p : settings.placements) already_measured[p] = resumed->completed(p);
  PhaseProgress progress(clock, o.quiet);
  MapObserver observer = progress.observer();
  // Most of pairs.csv goes to disk while the last placement is measured.
  std::optional<PairsCsvFile> pairs;
  if (settings.pairs_csv) {
    pairs.emplace(out, settings.via, settings.placements);
    observer.class_maps_made = [&pairs](Placement p, std::span<const LatencyMap> maps) { pairs->add(p, maps); };
  }
  observer.homes_found = [&](const RunHomes& homes) {
    if (resumed) check_same_homes(*resumed, homes);
  };
  observer.placement_done = [&](const PlacementResult& placement) {
    progress.finish();
    if (!o.quiet) report_checks(placement);
  };
  MapResult r = measure_map(*opened.backend, opened.units, settings, o, observer, stop, already_measured);
  clock.stamp(command.command_line);
  r.run = std::move(run);

  const RunSummary summary = write_map_outputs(r, out, pairs ? &*pairs : nullptr);
  out.publish();

  if (r.interrupted) {
    if (settings.pairs_csv)
      fmt::print(stderr, "cumap: interrupted: what was measured is in {} (complete it with cumap --resume {})\n",
                 o.out_dir.string(), o.out_dir.string());
    else
      fmt::print(stderr, "cumap: interrupted: what was measured is in {} (without pairs.csv it cannot be "
                 "completed: map it again)\n", o.out_dir.string());
    return InterruptHandler::kExitInterrupted;
  }
  report_timeouts(r, o);
  // What makes the run less than trustworthy, also in summary.md and report.html.
  // --quiet leaves them to the files.
  if (!o.quiet)
    for (const std::string& w : summary.warnings) fmt::print(stderr, "cumap: warning: {}\n", w);
  if (!o.quiet) fmt::print("{}\n", map_summary_line(summary, r.settings.out_dir));
  // Exit 3 either way; the last line says which.
  if (!r.timed_out().empty() && no_pair_completed(r)) {
    fmt::print(stderr, "cumap: no pair completed: every pair timed out, so the maps in {} hold no latency "
               "(summary.md says what was tried)\n", o.out_dir.string());
    return kExitTimedOut;
  }
  return r.timed_out().empty() ? kExitOk : kExitTimedOut;
}

}  // namespace cumap::cli
