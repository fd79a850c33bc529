// bench_engine: the host side of a whole map, without a device. A fake chip
// shaped like an H100 (132 units, two home classes) answers instantly, so
// what this times is cumap's own work: planning, the maps of 276 672 pair x
// line values per placement, the checks and the output files. That is the
// process wall time a GPU run adds on top of its kernels. With
// DEVICES > 1 it is that many such chips joined by a link: a map across GPUs
// (UNITS per chip), whose pairs across chips are measured on both sides.
// Chips of 132 units have an H100's GPCs (h100_like_topology), each chip
// its own, as the cuda backend reports them.
//
//   bench_engine [OUT_DIR] [UNITS] [DEVICES] [LINES_PER_CLASS (24, the cuda default)]
//                [CROSS_LINES (12, the cuda default; with DEVICES > 1)]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "run/map_run.hpp"
#include "core/run_summary.hpp"
#include "report/map_outputs.hpp"
#include "cli/run_clock.hpp"
#include "publish/output_set.hpp"
#include "report/pairs_csv.hpp"
#include "report/meta_json.hpp"
#include "fake_chip_backend.hpp"

int main(int argc, char** argv) {
  using namespace cumap;
  Options o;
  o.out_dir = argc > 1 ? argv[1] : "bench-engine-out";
  o.iters = 20;  // the cuda backend's default; samples and warm-up are Options' defaults
  o.schedule = ScheduleKind::Concurrent;
  o.quiet = true;
  o.lines_per_class = argc > 4 ? std::stoi(argv[4]) : 24;
  test::FakeChip spec;
  spec.devices = argc > 3 ? std::stoi(argv[3]) : 1;
  if (spec.devices > 1) o.cross_lines = argc > 5 ? std::stoi(argv[5]) : 12;
  spec.units = argc > 2 ? std::stoi(argv[2]) : 132;
  spec.noise = 0.01;
  spec.cycles_per_ns = 1.98;
  if (spec.units == 132) {  // GPCs as an H100's, on every chip
    const Topology chip = test::h100_like_topology();
    spec.topology = spec.devices == 1 ? chip : Topology{};
    for (int d = 0; spec.devices > 1 && d < spec.devices; ++d)
      for (const UnitGroup& g : chip.groups) {
        UnitGroup on_chip{g.name, {}};
        for (int u : g.units) on_chip.units.push_back(unit_id(UnitRef{d, u}));
        spec.topology.groups.push_back(std::move(on_chip));
      }
    spec.topology.source = chip.source;
  }
  test::FakeChipBackend chip(spec);

  RunInfo run;
  cli::RunClock clock(run);
  const MapSettings settings = map_settings(o, chip.device(), chip.capabilities());
  OutputSet out(o.out_dir);
  clock.end_phase("open");
  MapObserver observer;
  observer.phase_done = [&](const std::string& phase) { clock.end_phase(phase); };
  // pairs.csv as a run streams it (cli/map_command.cpp).
  PairsCsvFile pairs(out, settings.via, settings.placements);
  observer.class_maps_made = [&pairs](Placement p, std::span<const LatencyMap> maps) { pairs.add(p, maps); };
  MapResult r = measure_map(chip, chip.units(), settings, o, observer);
  clock.stamp("bench_engine");
  r.run = run;
  const auto outputs_start = std::chrono::steady_clock::now();
  const RunSummary summary = write_map_outputs(r, out, &pairs);
  const std::chrono::duration<double> made = std::chrono::steady_clock::now() - outputs_start;
  const std::vector<OutputSet::Written> written = out.written();
  const auto publish_start = std::chrono::steady_clock::now();
  out.publish();
  const std::chrono::duration<double> publishing = std::chrono::steady_clock::now() - publish_start;
  clock.end_phase("outputs");
  for (const auto& [phase, seconds] : run.phase_seconds) std::printf("%-12s %.3f s\n", phase.c_str(), seconds);
  for (const PlacementResult& p : r.placements)
    std::printf("  %s: measuring %.3f s, checks %.3f s, summaries not hidden %.3f s\n", to_string(p.placement).data(),
                p.seconds.measuring, p.seconds.checks, p.seconds.summaries);
  std::printf("  every file written at %.3f s, published in %.3f s\n", made.count(), publishing.count());
  // The files in the order they were done: the last before meta.json sets
  // how long the outputs take.
  for (const OutputSet::Written& w : written)
    std::printf("  written at %.3f s: %s\n", std::chrono::duration<double>(w.at - outputs_start).count(),
                w.name.c_str());

  // The outputs are made side by side: the slowest one sets the phase. Each
  // of the two largest alone:
  const auto alone = [](const char* name, auto make) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t bytes = make().size();
    const std::chrono::duration<double> s = std::chrono::steady_clock::now() - t0;
    std::printf("%-12s %.3f s alone (%zu bytes)\n", name, s.count(), bytes);
  };
  alone("meta.json", [&] { return make_meta(r, summary).dump(2); });
  alone("pairs.csv", [&] {
    std::vector<const LatencyMap*> maps;
    for (const PlacementResult& p : r.placements)
      for (const LatencyMap& m : p.per_class) maps.push_back(&m);
    return pairs_csv(maps, o.via);
  });
  return 0;
}
