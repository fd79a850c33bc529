#include "cli/commands.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/homes_outputs.hpp"
#include "cli/open_device.hpp"
#include "cli/progress.hpp"
#include "cli/run_clock.hpp"
#include "cumap/backend.hpp"
#include "cumap/error.hpp"
#include "render/render.hpp"
#include "cli/interrupt.hpp"
#include "publish/output_set.hpp"
#include "report/meta_json.hpp"
#include "run/map_run.hpp"
#include "core/map_result.hpp"
#include "core/stats.hpp"

namespace cumap::cli {
namespace {

// Per class: its lines, and the median latency to them from the units near
// it (its side) and from the others. The gap between the two is what makes
// a flag's home show in a map.
std::string class_summary(const HomesResult& h, int c) {
  const HomeClasses& classes = h.classes;
  std::vector<double> near, far;
  for (std::size_t u = 0; u < h.table.units.size(); ++u)
    (classes.unit_side[u] == c ? near : far).push_back(classes.class_unit_ns[static_cast<std::size_t>(c)][u]);
  std::string text = fmt::format("class {}: {} lines, near {:.1f} ns", c,
                                 std::count(classes.line_class.begin(), classes.line_class.end(), c),
                                 summarize(near).median);
  if (!far.empty()) text += fmt::format(", far {:.1f} ns", summarize(far).median);
  return text;
}

// One device's part: units and lines, classes with their latencies, sides.
std::string device_summary(const HomesResult& h, const std::string& unit_name) {
  std::string text = fmt::format("{} {}s x {} lines: {} home class(es)", h.table.units.size(), unit_name,
                                 h.table.lines.size(), h.classes.class_count);
  if (h.unreproduced_class_count > 0)
    text += fmt::format(" ({} found did not reproduce, {:.0f} % of re-probed lines agreed)", h.unreproduced_class_count,
                        100 * h.recheck_agreement);
  for (int c = 0; c < h.classes.class_count; ++c) text += "; " + class_summary(h, c);
  std::string sides;
  for (const UnitGroup& side : home_sides({h}).groups)
    sides += fmt::format("{}{} {} {}s", sides.empty() ? "" : ", ", side.name, side.units.size(), unit_name);
  return text + "; sides: " + sides;
}

// The options that `cumap homes` reads; the others keep their defaults there
// and would only mislead.
nlohmann::json homes_options_json(const Options& o) {
  const nlohmann::json all = to_json(o);
  nlohmann::json j = nlohmann::json::object();
  for (const char* key : {"backend", "device", "devices", "units_spec", "home_lines", "home_chain", "home_stride",
                          "home_serial", "flag_offset", "out_dir", "quiet", "order", "colormap", "hip_unit"})
    j[key] = all.at(key);
  return j;
}

// One line: the device, then each GPU's part, and where the files went.
void print_summary(const MapResult& r, const Options& o) {
  std::string line = fmt::format("{} ({})", r.device.name, r.device.backend);
  for (const HomesResult& h : r.homes)
    line += (r.homes.size() > 1 ? fmt::format("; GPU {}: ", h.device) : std::string(", ")) +
            device_summary(h, r.device.unit_name);
  line += fmt::format("; written to {}", o.out_dir.string());
  fmt::print("{}\n", line);
}

}  // namespace

int run_homes(const HomesCommand& command) {
  Options o = command.options;
  // The home table's heatmap is drawn after discovery: its font is checked before it.
  check_heatmap_font();
  RunInfo run;
  RunClock clock(run);
  OpenedBackend opened = open_measured_device(o);
  const MapSettings settings = discovery_settings(o, homes_options_json(o));

  OutputSet out(o.out_dir, OutputKind::Homes, o.replace);
  // Discovery has no safe point to stop at: the first Ctrl-C takes effect
  // when it ends (its files are complete then, and written, as a map writes
  // what it measured); a second one leaves at once.
  InterruptHandler interrupt;
  clock.end_phase("open");
  PhaseProgress progress(clock, o.quiet);
  MapResult r = measure_map(*opened.backend, opened.units, settings, o, progress.observer());
  clock.stamp(command.command_line);
  r.run = std::move(run);

  PendingFiles files(out);
  add_homes_outputs(r, files);
  files.write_all_then_meta([&] { return make_homes_meta(r); });
  out.publish();

  if (interrupt.stop_requested()) {
    fmt::print(stderr, "cumap: interrupted after home discovery had finished; its files are in {}\n",
               o.out_dir.string());
    return InterruptHandler::kExitInterrupted;
  }
  if (!o.quiet) print_summary(r, o);
  return kExitOk;
}

}  // namespace cumap::cli
