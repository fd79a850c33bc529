// pairs.csv streamed a placement at a time while a map runs (PairsCsvFile,
// as run_map wires it): the file is the one written whole after the map,
// and a placement handed over out of order waits for the end.
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "publish/output_set.hpp"
#include "report/map_outputs.hpp"
#include "report/pairs_csv.hpp"
#include "run/map_run.hpp"
#include "fake_chip_backend.hpp"
#include "small_map.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string whole_file(const MapResult& r) {
  std::vector<const LatencyMap*> maps;
  for (const PlacementResult& p : r.placements)
    for (const LatencyMap& m : p.per_class) maps.push_back(&m);
  return pairs_csv(maps, r.settings.via);
}

TEST(PairsCsvStream, TheStreamedFileIsTheFileWrittenWhole) {
  test::TempDir tmp;
  test::FakeChipBackend chip(test::FakeChip{});
  Options o = test::small_options();
  o.quiet = true;
  o.out_dir = tmp / "out";
  const MapSettings settings = map_settings(o, chip.device(), chip.capabilities());
  ASSERT_EQ(settings.placements.size(), 2u);
  OutputSet out(o.out_dir);
  PairsCsvFile pairs(out, settings.via, settings.placements);
  std::vector<Placement> handed;
  std::mutex handing;  // placements hand their maps over from threads of their own
  MapObserver observer;
  observer.class_maps_made = [&](Placement p, std::span<const LatencyMap> maps) {
    {
      const std::lock_guard<std::mutex> lock(handing);
      handed.push_back(p);
    }
    pairs.add(p, maps);
  };
  MapResult r = measure_map(chip, chip.units(), settings, o, observer);
  r.run.command_line = "test";
  std::sort(handed.begin(), handed.end());
  EXPECT_EQ(handed, settings.placements) << "each placement's maps handed over once";
  write_map_outputs(r, out, &pairs);
  out.publish();
  EXPECT_EQ(read(o.out_dir / "pairs.csv"), whole_file(r));
}

TEST(PairsCsvStream, APlacementOutOfOrderIsWrittenAtTheEndInItsPlace) {
  test::TempDir tmp;
  test::FakeChipBackend chip(test::FakeChip{});
  Options o = test::small_options();
  o.quiet = true;
  o.out_dir = tmp / "out";
  const MapSettings settings = map_settings(o, chip.device(), chip.capabilities());
  MapResult r = measure_map(chip, chip.units(), settings, o);
  r.run.command_line = "test";
  OutputSet out(o.out_dir);
  PairsCsvFile pairs(out, settings.via, settings.placements);
  pairs.add(r.placements[1].placement, r.placements[1].per_class);  // before the first: left for the end
  pairs.add(r.placements[0].placement, r.placements[0].per_class);
  pairs.add(r.placements[0].placement, r.placements[0].per_class);  // again: no second copy
  write_map_outputs(r, out, &pairs);
  out.publish();
  EXPECT_EQ(read(o.out_dir / "pairs.csv"), whole_file(r));
}

}  // namespace
}  // namespace cumap
