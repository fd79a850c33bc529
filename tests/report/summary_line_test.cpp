// The console's last line of a map, from the summary of a result built by
// hand: words a user reads for where pairs sit relative to the flag's home,
// and nothing of homes on the dsm path.
#include <string>

#include <gtest/gtest.h>

#include "core/run_summary.hpp"
#include "report/summary_line.hpp"

namespace cumap {
namespace {

std::string line_of(const MapResult& r) { return map_summary_line(run_summary(r), r.settings.out_dir); }

MapResult two_class_run() {
  MapResult r;
  r.settings.out_dir = "out";
  r.device.name = "NVIDIA H100 80GB HBM3";
  r.device.backend = "cuda";
  r.device.unit_name = "SM";
  r.display_order = {0, 1, 2, 3};
  r.homes.resize(1);
  r.homes[0].classes.class_count = 2;
  PlacementResult p;
  p.placement = Placement::SameLine;
  p.pairs_per_round = 2;
  p.headline_ns = ValueMatrix::filled({0, 1, 2, 3}, 300.0);
  r.placements = {p};
  r.structure = {StructureRow{"same-side", 2, 272.0, 0, 0, 10}, StructureRow{"same-side", 0, 424.0, 0, 0, 10},
                 StructureRow{"other-side", 1, 347.0, 0, 0, 20}};
  return r;
}

TEST(MapSummary, LevelsAreInWordsNotCodes) {
  const std::string line = line_of(two_class_run());
  EXPECT_NE(line.find("2 home class(es)"), std::string::npos) << line;
  EXPECT_NE(line.find("every class pooled: near side 272.0 ns, far side 424.0 ns, across sides 347.0 ns"),
            std::string::npos)
      << line;
  EXPECT_EQ(line.find("same-side"), std::string::npos) << line;
  EXPECT_EQ(line.find("near 2"), std::string::npos) << line;
}

TEST(MapSummary, EveryStructureRowHasWords) {
  EXPECT_EQ(structure_words({"same-side", 2}), "near side");
  EXPECT_EQ(structure_words({"same-side", 0}), "far side");
  EXPECT_EQ(structure_words({"other-side", 1}), "across sides");
  EXPECT_EQ(structure_words({"other-side", 0}), "across sides, both far");
}

// A dsm run has no homes: the result says how it was measured, so no run
// with both homes and dsm can be built.
TEST(MapSummary, TheDsmPathSaysNothingOfHomes) {
  MapResult r = two_class_run();
  r.settings.via = Path::Dsm;
  r.homes.clear();
  r.structure.clear();
  const std::string line = line_of(r);
  for (const char* word : {"home", "near", "far", "side"}) EXPECT_EQ(line.find(word), std::string::npos) << word << ": " << line;
  EXPECT_NE(line.find("dsm one-way median 300.0 ns"), std::string::npos) << line;
}

TEST(MapSummary, OneClassHasNoLevels) {
  MapResult r = two_class_run();
  r.homes[0].classes.class_count = 1;
  r.structure = {StructureRow{"same-side", 2, 60.0, 0, 0, 6}};
  const std::string line = line_of(r);
  EXPECT_NE(line.find("1 home class(es)"), std::string::npos) << line;
  EXPECT_EQ(line.find("near the flag"), std::string::npos) << line;
}

}  // namespace
}  // namespace cumap
