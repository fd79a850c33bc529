#include "cli/commands.hpp"

#include <string>

#include <fmt/format.h>

#include "cli/interrupt.hpp"
#include "cli/open_device.hpp"
#include "cli/progress.hpp"
#include "cli/run_clock.hpp"
#include "cumap/error.hpp"
#include "render/render.hpp"
#include "publish/output_set.hpp"
#include "report/sync_csv.hpp"
#include "report/sync_outputs.hpp"
#include "run/map_run.hpp"
#include "plan/sync_plan.hpp"
#include "run/sync_run.hpp"
#include "core/sync_cases.hpp"

namespace cumap::cli {
namespace {

// One line: the device, what was measured, the fastest case at k = every
// unit of the device, and where the files went.
std::string summary_line(const SyncResult& r, const SyncOptions& o) {
  const DeviceInfo& d = r.discovery.device;
  std::size_t timed_out = 0;
  for (const SyncCaseResult& c : r.cases) timed_out += c.timed_out;
  const auto [most, fastest] = cheapest_at_largest_k(r.cases);
  std::string line = fmt::format("{} ({}): {} {} case(s)", d.name, d.backend, r.cases.size(),
                                 o.contention ? "contention" : "barrier");
  if (timed_out > 0) line += fmt::format(", {} timed out", timed_out);
  if (fastest)
    line += fmt::format("; fastest at k={}: {} ({}, {}) {:.1f} ns{}", most, sync_construction(*fastest),
                        fastest->label.set, fastest->label.counter_home, fastest->headline_ns(),
                        o.contention ? " per operation" : " per barrier");
  return line + fmt::format("; written to {}", o.common.out_dir.string());
}

}  // namespace

int run_sync(const SyncCommand& command) {
  SyncOptions o = command.options;
  // The plot is drawn after the measuring: its font is checked before it.
  check_heatmap_font();
  RunInfo run;
  RunClock clock(run);
  OpenedBackend opened = open_measured_device(o.common);
  if (!o.contention && opened.units.size() < 2)
    throw UsageError(fmt::format("a barrier needs at least two units; --units names {}", opened.units.size()));
  // Before home discovery: a k no set of these units can have.
  check_k_sweep(o.k, opened.units.size(), o.contention);

  OutputSet out(o.common.out_dir, o.contention ? OutputKind::Contention : OutputKind::Barrier, o.common.replace);
  // From here the first Ctrl-C (or SIGTERM, SIGHUP) ends the run after the
  // case in progress (home discovery, which has no safe point, first) and
  // writes what it has; a second one leaves at once.
  InterruptHandler interrupt;
  const StopFn stop = [&] { return interrupt.stop_requested(); };
  clock.end_phase("open");
  PhaseProgress progress(clock, o.common.quiet);
  SyncResult r = measure_sync_run(*opened.backend, opened.units, o, progress.observer(), stop);
  clock.stamp(command.command_line);
  r.discovery.run = std::move(run);

  write_sync_outputs(r, out);
  out.publish();

  if (r.interrupted) {
    fmt::print(stderr, "cumap: interrupted: the {} of {} case(s) measured are in {}\n", r.cases.size(),
               r.planned_cases, o.common.out_dir.string());
    return InterruptHandler::kExitInterrupted;
  }
  if (!o.common.quiet) fmt::print("{}\n", summary_line(r, o));
  std::size_t timed_out = 0, measured = 0;
  for (const SyncCaseResult& c : r.cases) {
    timed_out += c.timed_out;
    measured += c.measured();
  }
  if (timed_out == 0) return kExitOk;
  if (measured == 0)
    fmt::print(stderr, "cumap: no case completed: every case timed out (--timeout-ms {:g}); {} says what was tried\n",
               o.common.timeout_ms, (o.common.out_dir / "summary.md").string());
  else
    fmt::print(stderr, "cumap: {} case(s) timed out (--timeout-ms {:g}); see {}\n", timed_out, o.common.timeout_ms,
               (o.common.out_dir / sync_csv_name(r)).string());
  return kExitTimedOut;
}

}  // namespace cumap::cli
