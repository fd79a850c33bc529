// Pairs between GPUs by flag GPU, home class and both units' sides, from
// per-class maps split by flag GPU built by hand.
#include <gtest/gtest.h>

#include "core/cross_gpu_structure.hpp"
#include "core/display_layout.hpp"
#include "cumap/plan.hpp"

namespace cumap {
namespace {

constexpr int kG1 = kDeviceUnitStride;

// Units g0.0 (side 0), g0.1 (side 1), g1.0 (side 0), g1.1 (side 1); every
// cell between GPUs costs base + 10 * (side on g0) + 100 * (side on g1).
ValueMatrix across(double base, bool ordered_extra = false) {
  const std::vector<int> units{0, 1, kG1, kG1 + 1};
  ValueMatrix m = ValueMatrix::filled(units, kNaN);
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t c = 0; c < 4; ++c) {
      if ((r < 2) == (c < 2)) continue;
      const std::size_t on_g0 = r < 2 ? r : c, on_g1 = r < 2 ? c : r;
      m.at(r, c) = base + 10.0 * static_cast<double>(on_g0) + 100.0 * static_cast<double>(on_g1 - 2);
      if (ordered_extra && r > c) m.at(r, c) += 1.0;  // the other direction differs
    }
  m.at(0, 1) = 5.0;  // a pair inside g0: not a row of this table
  return m;
}

TEST(CrossGpuStructure, OneRowPerFlagGpuClassAndSidePairWithItsCells) {
  std::map<int, std::vector<ValueMatrix>> maps{{0, {across(1000), across(2000)}}, {1, {across(3000), across(4000)}}};
  const std::vector<int> units{0, 1, kG1, kG1 + 1};
  const std::vector<int> sides{0, 1, 0, 1};
  const std::vector<CrossGpuStructureRow> rows = cross_gpu_structure(maps, {0, 1}, units, sides);
  ASSERT_EQ(rows.size(), 2u * 2 * 2 * 2);
  for (const CrossGpuStructureRow& r : rows) {
    EXPECT_EQ(r.gpu_a, 0);
    EXPECT_EQ(r.gpu_b, 1);
    EXPECT_EQ(r.cells, 1u) << "an unordered map counts each pair once";
    const double base = 1000.0 * (1 + 2 * r.flags_on + r.home_class);
    EXPECT_DOUBLE_EQ(r.median_ns, base + 10 * r.side_a + 100 * r.side_b);
  }
  // Sorted by flag GPU, class, side on a, side on b.
  EXPECT_EQ(rows.front().flags_on, 0);
  EXPECT_EQ(rows[1].side_b, 1);
  EXPECT_EQ(rows.back().flags_on, 1);
  EXPECT_EQ(rows.back().home_class, 1);
}

TEST(CrossGpuStructure, OrderedMapsCountEachDirectionAndOneGpuHasNone) {
  std::map<int, std::vector<ValueMatrix>> maps{{0, {across(1000, true)}}};
  const std::vector<int> units{0, 1, kG1, kG1 + 1};
  const std::vector<CrossGpuStructureRow> rows = cross_gpu_structure(maps, {0}, units, {0, 1, 0, 1});
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].cells, 2u);
  EXPECT_DOUBLE_EQ(rows[0].median_ns, 1000.5);

  ValueMatrix one_gpu = ValueMatrix::filled({0, 1}, 300.0);
  EXPECT_TRUE(cross_gpu_structure({{0, {one_gpu}}}, {0}, {0, 1}, {0, 1}).empty());
  EXPECT_THROW(cross_gpu_structure(maps, {0}, units, {0}), std::invalid_argument);
}

TEST(DisplayGroupNames, SplitBackIntoDeviceSideAndGroup) {
  const DisplayGroupName full = split_display_group_name("g1 S0 GPC10");
  EXPECT_EQ(full.device, 1);
  EXPECT_EQ(full.side, 0);
  EXPECT_EQ(full.group, "GPC10");
  const DisplayGroupName sided = split_display_group_name("S1 other");
  EXPECT_FALSE(sided.device);
  EXPECT_EQ(sided.side, 1);
  EXPECT_EQ(sided.group, "other");
  const DisplayGroupName plain = split_display_group_name("Server 3");
  EXPECT_FALSE(plain.device);
  EXPECT_FALSE(plain.side) << "a word that only starts with S";
  EXPECT_EQ(plain.group, "Server 3");
  // What side_group_layout writes, it reads back.
  Topology t;
  t.groups = {{"GPC3", {0, kG1}}};
  const DisplayLayout layout = side_group_layout(t, {0, 1, kG1, kG1 + 1}, {1, 0, 1, 0}, UnitOrder::Topology);
  ASSERT_FALSE(layout.groups.groups.empty());
  const DisplayGroupName back = split_display_group_name(layout.groups.groups.back().name);
  EXPECT_EQ(back.device, 1);
  EXPECT_EQ(back.side, 1);
  EXPECT_EQ(back.group, "GPC3");
}

}  // namespace
}  // namespace cumap
