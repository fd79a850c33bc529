#include "cli/command_line.hpp"

#include <map>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cumap/error.hpp"

namespace cumap::cli {
namespace {

const std::map<std::string, BackendKind> kBackends{
    {"auto", BackendKind::Auto}, {"cpu", BackendKind::Cpu}, {"cuda", BackendKind::Cuda}, {"hip", BackendKind::Hip}};
const std::map<std::string, Probe> kProbes{
    {"cas", Probe::Cas}, {"exch", Probe::Exch}, {"acq-rel", Probe::AcqRel}, {"volatile", Probe::Volatile}};
const std::map<std::string, UnitOrder> kOrders{{"index", UnitOrder::Index}, {"topology", UnitOrder::Topology}};
const std::map<std::string, HipUnit> kHipUnits{{"cu", HipUnit::Cu}, {"wgp", HipUnit::Wgp}};

// Enum-valued options are read as text and mapped after parsing: Debian's
// CLI11 2.1 cannot bind enums directly under C++20.
struct Choices {
  std::string backend = "auto";
  std::string probe = "cas";
  std::string order = "topology";
  std::string hip_unit = "cu";

  void apply(Options& o) const {
    o.backend = kBackends.at(backend);
    o.probe = kProbes.at(probe);
    o.order = kOrders.at(order);
    o.hip_unit = kHipUnits.at(hip_unit);
  }
};

template <typename Enum>
CLI::Option* add_choice(CLI::App& app, const std::string& name, std::string& target,
                        const std::map<std::string, Enum>& allowed, const std::string& help) {
  std::vector<std::string> names;
  for (const auto& [k, v] : allowed) names.push_back(k);
  return app.add_option(name, target, help)
      ->transform(CLI::IsMember(names, CLI::ignore_case))
      ->capture_default_str();
}

// Options that pick and drive a device; shared by the map and `topology`.
void add_device_options(CLI::App& app, Options& o, Choices& c) {
  add_choice(app, "--backend", c.backend, kBackends, "auto, cpu, cuda or hip");
  app.add_option("--device", o.device, "GPU index")->capture_default_str();
  add_choice(app, "--unit", c.hip_unit, kHipUnits, "AMD: measure per cu or per wgp");
}

void add_map_options(CLI::App& app, Options& o, Choices& c, bool& same_line, bool& split_line) {
  app.add_flag("--same-line", same_line, "both flags in one cache line");
  app.add_flag("--split-line", split_line, "the flags in different cache lines (default: both placements)");
  app.add_option("--units", o.units_spec, "units to map, e.g. 0-7,16,32-47 (default: all)");
  app.add_option("--iters", o.iters, "round trips per sample")->capture_default_str();
  app.add_option("--samples", o.samples, "samples per pair")->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed round trips before the samples")->capture_default_str();
  app.add_option("--timeout-ms", o.timeout_ms, "budget of every wait; a pair past it is reported as timed out")
      ->capture_default_str();
  app.add_flag("--ordered", o.ordered, "measure a->b and b->a separately (default: each sample is half a->b, half b->a)");
  app.add_option("--out", o.out_dir, "output directory")->capture_default_str();
  app.add_flag("--quiet,-q", o.quiet, "no progress, no summary");
  app.add_flag("--flush-cache", o.flush_cache, "flush L2 before each pair (AMD: also the instruction cache)");
  app.add_option("--rotating-count", o.rotating_count, "rotate the flags over K copies at different addresses")
      ->capture_default_str();
  app.add_flag("--l2-persist", o.l2_persist, "CUDA: keep the flags in a persisting L2 window");
  add_choice(app, "--probe", c.probe, kProbes, "signalling operation: cas, exch, acq-rel, volatile");
  add_choice(app, "--order", c.order, kOrders, "row/column order of matrices and heatmaps: index or topology");
  app.add_option("--colormap", o.colormap, "viridis, magma or cividis")
      ->check(CLI::IsMember({"viridis", "magma", "cividis"}))
      ->capture_default_str();
}

std::string join_argv(int argc, char** argv) {
  std::ostringstream s;
  for (int i = 0; i < argc; ++i) s << (i ? " " : "") << argv[i];
  return s.str();
}

// CLI11 messages sometimes span lines; users get one.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

void validate_options(const Options& o) {
  if (o.iters < 1) throw UsageError(fmt::format("--iters must be at least 1 (got {})", o.iters));
  if (o.samples < 1) throw UsageError(fmt::format("--samples must be at least 1 (got {})", o.samples));
  if (o.warmup < 0) throw UsageError(fmt::format("--warmup must not be negative (got {})", o.warmup));
  if (!(o.timeout_ms > 0)) throw UsageError(fmt::format("--timeout-ms must be positive (got {})", o.timeout_ms));
  if (o.rotating_count < 1)
    throw UsageError(fmt::format("--rotating-count must be at least 1 (got {})", o.rotating_count));
  if (o.device < 0) throw UsageError(fmt::format("--device must not be negative (got {})", o.device));
  if (o.out_dir.empty()) throw UsageError("--out must name a directory");
}

Command parse_command_line(int argc, char** argv) {
  CLI::App app{"cumap: maps cross-compute-unit synchronization latency (CAS ping-pong) on GPUs and CPUs", "cumap"};
  app.set_version_flag("--version", std::string("cumap ") + CUMAP_VERSION);
  app.require_subcommand(0, 1);

  MapCommand map;
  bool same_line = false, split_line = false, list_devices = false;
  Choices map_choices, topo_choices;
  add_device_options(app, map.options, map_choices);
  add_map_options(app, map.options, map_choices, same_line, split_line);
  app.add_flag("--list-devices", list_devices, "list the devices each built backend can see");

  RenderCommand render;
  CLI::App* render_app = app.add_subcommand("render", "re-draw a heatmap PNG from a matrix CSV");
  render_app->add_option("csv", render.request.csv, "matrix CSV written by cumap")->required();
  render_app->add_option("-o,--output", render.request.png, "PNG to write")->required();
  render_app->add_option("--order", render.request.order, "topology JSON giving unit order and groups");
  render_app->add_option("--scale", render.request.scale, "auto or MIN:MAX in ns")->capture_default_str();
  render_app->add_option("--title", render.request.title, "title line");
  render_app->add_option("--colormap", render.request.colormap, "viridis, magma or cividis")
      ->check(CLI::IsMember({"viridis", "magma", "cividis"}))
      ->capture_default_str();

  TopologyCommand topo;
  CLI::App* topo_app = app.add_subcommand("topology", "print the discovered layout of the device's units");
  add_device_options(*topo_app, topo.options, topo_choices);
  topo_app->add_option("--json", topo.json_out, "also write the layout as JSON to this file");

  CoherenceCommand coherence;
  Choices coherence_choices;
  CLI::App* coh_app =
      app.add_subcommand("check-coherence", "which load/store operators see another SM's store (GPU L1 coherence)");
  add_device_options(*coh_app, coherence.options, coherence_choices);
  coh_app->add_option("--reader", coherence.reader, "unit that caches the line (default: the first)");
  coh_app->add_option("--writer", coherence.writer, "unit that stores to it (default: the last)");
  coh_app->add_option("--window-ms", coherence.window_ms, "how long the reader looks for the new value")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  coh_app->add_option("--json", coherence.json_out, "also write the table as JSON to this file");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return Answered{app.exit(e)};
  } catch (const CLI::ParseError& e) {
    throw UsageError(one_line(e.what()) + " (see cumap --help)");
  }

  map_choices.apply(map.options);
  topo_choices.apply(topo.options);
  coherence_choices.apply(coherence.options);
  if (coh_app->parsed()) return coherence;
  if (render_app->parsed()) return render;
  if (topo_app->parsed()) return topo;
  if (list_devices) return ListDevicesCommand{map.options};

  if (same_line != split_line) map.options.placements = {same_line ? Placement::SameLine : Placement::SplitLine};
  validate_options(map.options);
  map.command_line = join_argv(argc, argv);
  return map;
}

}  // namespace cumap::cli
