// The cross-GPU structure a map across GPUs computes (measure_map), over a
// fake of two chips whose link costs more for units of side 1 and for lines
// of class 1: every row must carry exactly what the fake adds up.
#include <gtest/gtest.h>

#include "run/map_run.hpp"
#include "fake_chip_backend.hpp"
#include "small_map.hpp"

namespace cumap {
namespace {

TEST(CrossGpuStructureRun, EveryRowIsTheFlagSideReachPlusTheLinkOfTheUnitAcross) {
  test::FakeChip spec;
  spec.devices = 2;
  spec.units = 8;
  spec.link_ns = 900.0;
  spec.link_step_ns = 100.0;        // into device 1's memory: 1000
  spec.link_side_step_ns = 40.0;    // a unit of side 1 reaching across pays 40 more
  spec.link_class_step_ns = 20.0;   // a line of class 1 costs 20 more over the link
  test::FakeChipBackend chip(spec);
  Options o = test::small_options();
  o.lines_per_class = 2;
  o.schedule = ScheduleKind::Concurrent;
  const MapResult r = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o);

  for (const PlacementResult& p : r.placements) {
    ASSERT_EQ(p.per_class_flags_on_ns.size(), 2u) << "a matrix set per GPU holding flags";
    ASSERT_EQ(p.per_class_flags_on_ns.at(0).size(), 2u) << "one matrix per class";
    // 2 flag GPUs x 2 classes x 2 sides on g0 x 2 sides on g1.
    ASSERT_EQ(p.cross_gpu_structure.size(), 16u) << to_string(p.placement);
    for (const CrossGpuStructureRow& row : p.cross_gpu_structure) {
      EXPECT_EQ(row.gpu_a, 0);
      EXPECT_EQ(row.gpu_b, 1);
      EXPECT_EQ(row.cells, 16u) << "4 units of a side on g0 with 4 of a side on g1";
      const int beside = row.flags_on == 0 ? row.side_a : row.side_b;
      const int across = row.flags_on == 0 ? row.side_b : row.side_a;
      // The unit beside the flag reaches its line near (150) or far (250);
      // the unit across, over the link into the flag's GPU.
      const double flag_side = beside == row.home_class ? 150.0 : 250.0;
      const double link = 900.0 + 100.0 * row.flags_on + 40.0 * across + 20.0 * row.home_class;
      EXPECT_DOUBLE_EQ(row.median_ns, flag_side + link)
          << to_string(p.placement) << " flags on g" << row.flags_on << ", class " << row.home_class << ", sides "
          << row.side_a << "/" << row.side_b;
    }
  }
}

TEST(CrossGpuStructureRun, OneChipHasNone) {
  test::FakeChipBackend chip(test::FakeChip{});
  Options o = test::small_options();
  const MapResult r = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o);
  for (const PlacementResult& p : r.placements) {
    EXPECT_TRUE(p.cross_gpu_structure.empty());
    EXPECT_TRUE(p.per_class_flags_on_ns.empty());
  }
}

}  // namespace
}  // namespace cumap
