// Two runs compared (core/run_comparison.hpp): matrices cell by cell in
// either order, which chips compare, rows matched by key, sides that moved,
// and the verdict against the threshold.
#include <gtest/gtest.h>

#include <cmath>

#include "core/run_comparison.hpp"

namespace cumap {
namespace {

ValueMatrix matrix(std::vector<int> units, std::vector<double> values) { return {std::move(units), std::move(values)}; }

TEST(CompareMatrices, ComparesCellByCellInAOrder) {
  const ValueMatrix a = matrix({0, 1, 2}, {kNaN, 100, 200, 100, kNaN, 300, 200, 300, kNaN});
  // B lists its units in another order and moved pair 1-2 by 10 %.
  const ValueMatrix b = matrix({2, 0, 1}, {kNaN, 200, 330, 200, kNaN, 100, 330, 100, kNaN});
  const auto d = compare_matrices(a, b);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->count, 6u);
  EXPECT_NEAR(d->median_rel_diff, 0.0, 1e-12);
  EXPECT_GT(d->p95_rel_diff, 0.05);
  ASSERT_FALSE(d->most_moved.empty());
  EXPECT_EQ(d->most_moved.front().what, "1-2");
  EXPECT_NEAR(d->most_moved.front().rel_diff, 0.1, 1e-12);
  // A mirrored map names each pair once among those that moved most.
  for (std::size_t i = 1; i < d->most_moved.size(); ++i) EXPECT_NE(d->most_moved[i].what, "2-1");
  const ValueMatrix diff = difference_matrix(a, b);
  EXPECT_EQ(diff.units, a.units);
  EXPECT_DOUBLE_EQ(diff.at(1, 2), 30.0);
  EXPECT_TRUE(std::isnan(diff.at(0, 0)));
}

TEST(CompareMatrices, OtherUnitsDoNotCompare) {
  EXPECT_FALSE(compare_matrices(matrix({0, 1}, {kNaN, 1, 1, kNaN}), matrix({0, 2}, {kNaN, 1, 1, kNaN})));
}

RunHeader gpu(std::string name, std::vector<std::string> serials) {
  RunHeader h;
  h.backend = "cuda";
  h.device_name = std::move(name);
  h.unit_name = "SM";
  h.serials = std::move(serials);
  return h;
}

TEST(MatchChips, ByNameAndSerialOrHostAndModel) {
  EXPECT_TRUE(match_chips(gpu("H200", {"1"}), false, gpu("H200", {"1"}), false).same);
  const ChipMatch other = match_chips(gpu("H200", {"1"}), false, gpu("H200", {"2"}), false);
  EXPECT_FALSE(other.same);
  EXPECT_NE(other.why.find("serial 1"), std::string::npos) << other.why;
  EXPECT_NE(match_chips(gpu("H200", {"1"}), false, gpu("H100", {"1"}), false).why.find("H100"), std::string::npos);
  EXPECT_FALSE(match_chips(gpu("H200", {""}), false, gpu("H200", {""}), false).same);
  // Across GPUs every serial, in any order.
  EXPECT_TRUE(match_chips(gpu("H200", {"1", "2"}), false, gpu("H200", {"2", "1"}), false).same);
  RunHeader cpu = gpu("Xeon", {});
  cpu.backend = "cpu";
  cpu.host = "box";
  EXPECT_TRUE(match_chips(cpu, true, cpu, true).same);
  RunHeader elsewhere = cpu;
  elsewhere.host = "other";
  EXPECT_FALSE(match_chips(cpu, true, elsewhere, true).same);
  EXPECT_FALSE(match_chips(gpu("H200", {"1"}), false, cpu, true).comparable);
}

TEST(Judge, ARowBeyondTheThresholdOrInOneRunOnlyIsADifference) {
  RunComparison c;
  c.threshold = 0.03;
  c.tables.push_back({"Structure", {"placement"}, "ns", {{{"same-line"}, 100.0, 102.0}}});
  judge(c);
  EXPECT_TRUE(c.alike());
  c.tables.front().rows.front().b = 104.0;
  judge(c);
  ASSERT_EQ(c.beyond_threshold.size(), 1u);
  EXPECT_NE(c.beyond_threshold.front().find("+4.0 %"), std::string::npos) << c.beyond_threshold.front();
  c.tables.front().rows = {{{"split-line"}, 100.0, kNaN}};
  judge(c);
  ASSERT_EQ(c.beyond_threshold.size(), 1u);
  EXPECT_NE(c.beyond_threshold.front().find("only in A"), std::string::npos);
  c.tables.clear();
  PairedDifference far;
  far.count = 10;
  far.median_rel_diff = 0.05;
  c.files = {{"matrix-same-line.csv", far, ""}};
  judge(c);
  EXPECT_FALSE(c.alike());
}

TEST(SidesDifference, NamesUnitsOnAnotherSideOfOneChip) {
  RunHeader a = gpu("H200", {"1"}), b = a;
  a.sides = {{"side0", {0, 1}}, {"side1", {2, 3}}};
  b.sides = {{"side0", {0, 2}}, {"side1", {1, 3}}};
  Topology groups;
  groups.groups = {{"GPC0", {0, 1}}, {"GPC1", {2, 3}}};
  const SidesDifference d = sides_difference(a, groups, b, groups, true);
  EXPECT_EQ(d.moved_units, (std::vector<int>{1, 2}));
  ASSERT_EQ(d.groups.size(), 2u);
  EXPECT_EQ(d.groups[0].side_a, 0);
  EXPECT_TRUE(sides_difference(a, groups, b, groups, false).moved_units.empty());
}

}  // namespace
}  // namespace cumap
