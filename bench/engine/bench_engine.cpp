// bench_engine: the host side of a whole map, without a device. A fake chip
// shaped like an H100 (132 units, two home classes) answers instantly, so
// what this times is cumap's own work: planning, the maps of 276 672 pair x
// line values per placement, the checks and the output files. That is the
// process wall time a GPU run adds on top of its kernels. With
// DEVICES > 1 it is that many such chips joined by a link: a map across GPUs
// (UNITS per chip), whose pairs across chips are measured on both sides. One
// chip of 132 units has an H100's GPCs (h100_like_topology).
//
//   bench_engine [OUT_DIR] [UNITS] [DEVICES] [LINES_PER_CLASS (24, the cuda default)]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "run/map_run.hpp"
#include "report/map_outputs.hpp"
#include "cli/run_clock.hpp"
#include "report/output_set.hpp"
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
  spec.units = argc > 2 ? std::stoi(argv[2]) : 132;
  spec.devices = argc > 3 ? std::stoi(argv[3]) : 1;
  spec.noise = 0.01;
  spec.cycles_per_ns = 1.98;
  if (spec.units == 132 && spec.devices == 1) spec.topology = test::h100_like_topology();  // GPCs as an H100's
  test::FakeChipBackend chip(spec);

  RunInfo run;
  cli::RunClock clock(run);
  const MapSettings settings = map_settings(o, chip.device(), chip.capabilities());
  OutputSet out(o.out_dir);
  clock.end_phase("open");
  MapObserver observer;
  observer.phase_done = [&](const std::string& phase) { clock.end_phase(phase); };
  MapResult r = measure_map(chip, chip.units(), settings, o, observer);
  clock.stamp("bench_engine");
  r.run = run;
  const auto outputs_start = std::chrono::steady_clock::now();
  write_map_outputs(r, out);
  const std::vector<OutputSet::Written> written = out.written();
  out.publish();
  clock.end_phase("outputs");
  for (const auto& [phase, seconds] : run.phase_seconds) std::printf("%-12s %.3f s\n", phase.c_str(), seconds);
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
  alone("meta.json", [&] { return make_meta(r).dump(2); });
  alone("pairs.csv", [&] {
    std::vector<const LatencyMap*> maps;
    for (const PlacementResult& p : r.placements)
      for (const LatencyMap& m : p.per_class) maps.push_back(&m);
    return pairs_csv(maps, o.via);
  });
  return 0;
}
