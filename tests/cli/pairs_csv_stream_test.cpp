// pairs.csv streamed a placement at a time while a map runs (PairsCsvFile,
// as run_map wires it): the file is the one written whole after the map,
// and a placement handed over out of order waits for the end.
#include <filesystem>
#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "publish/output_set.hpp"
#include "report/map_outputs.hpp"
#include "report/pairs_csv.hpp"
#include "run/map_run.hpp"
#include "fake_chip_backend.hpp"
#include "small_map.hpp"
#include "file_text.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;
using test::file_text;

std::string whole_file(const MapResult& r) {
  std::vector<const LatencyMap*> maps;
  for (const PlacementResult& p : r.placements)
    for (const LatencyMap& m : p.per_class) maps.push_back(&m);
  return pairs_csv(maps, r.settings.via);
}

// A map on the engine's fake chip, quiet, into a directory of its own.
class PairsCsvStream : public ::testing::Test {
 protected:
  static Options quiet_options(const fs::path& out_dir) {
    Options o = test::small_options();
    o.quiet = true;
    o.out_dir = out_dir;
    return o;
  }
  test::TempDir tmp_;
  test::FakeChipBackend chip_{test::FakeChip{}};
  const Options o_ = quiet_options(tmp_ / "out");  // before settings_, which are made from it
  const MapSettings settings_ = map_settings(o_, chip_.device(), chip_.capabilities());
};

TEST_F(PairsCsvStream, TheStreamedFileIsTheFileWrittenWhole) {
  ASSERT_EQ(settings_.placements.size(), 2u);
  OutputSet out(o_.out_dir);
  PairsCsvFile pairs(out, settings_.via, settings_.placements);
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
  MapResult r = measure_map(chip_, chip_.units(), settings_, o_, observer);
  r.run.command_line = "test";
  std::sort(handed.begin(), handed.end());
  EXPECT_EQ(handed, settings_.placements) << "each placement's maps handed over once";
  write_map_outputs(r, out, &pairs);
  out.publish();
  EXPECT_EQ(file_text(o_.out_dir / "pairs.csv"), whole_file(r));
}

TEST_F(PairsCsvStream, APlacementOutOfOrderIsWrittenAtTheEndInItsPlace) {
  MapResult r = measure_map(chip_, chip_.units(), settings_, o_);
  r.run.command_line = "test";
  OutputSet out(o_.out_dir);
  PairsCsvFile pairs(out, settings_.via, settings_.placements);
  pairs.add(r.placements[1].placement, r.placements[1].per_class);  // before the first: left for the end
  pairs.add(r.placements[0].placement, r.placements[0].per_class);
  pairs.add(r.placements[0].placement, r.placements[0].per_class);  // again: no second copy
  write_map_outputs(r, out, &pairs);
  out.publish();
  EXPECT_EQ(file_text(o_.out_dir / "pairs.csv"), whole_file(r));
}

}  // namespace
}  // namespace cumap
