// A map seen from further out (core/map_views.hpp): the slowest and fastest
// pairs, each unit's fitted term and the one that stands out, and the side
// x side and group x group means, on a small map made to have them.
#include <gtest/gtest.h>

#include <cmath>

#include "core/homes.hpp"
#include "core/map_views.hpp"

namespace cumap {
namespace {

// one-way(a, b) = u(a) + u(b) + 100, with unit 5 slower by 30 ns and the
// units of `far_side` (0: units 0-3, 1: units 4-7; -1: every unit at half)
// 20 ns further from the flag: a map whose additive fit is exact.
ValueMatrix additive_map(const std::vector<int>& units, int far_side) {
  ValueMatrix m = ValueMatrix::filled(units, kNaN);
  const auto far = [&](int id) { return far_side < 0 ? 10.0 : (id < 4) == (far_side == 0) ? 20.0 : 0.0; };
  const auto u = [&](int id) { return (id == 5 ? 30.0 : 0.0) + far(id) + 0.1 * id; };
  for (std::size_t r = 0; r < units.size(); ++r)
    for (std::size_t c = 0; c < units.size(); ++c)
      if (r != c) m.at(r, c) = u(units[r]) + u(units[c]) + 100.0;
  return m;
}

RunSummary two_sides() {
  RunSummary s;
  s.run.unit_name = "SM";
  s.run.units = {0, 1, 2, 3, 4, 5, 6, 7};
  s.run.class_count = 2;
  s.run.sides = {{"side0", {0, 1, 2, 3}}, {"side1", {4, 5, 6, 7}}};
  return s;
}

TEST(MapViews, ExtremesTermsAndBlocks) {
  const std::vector<int> units{0, 1, 2, 3, 4, 5, 6, 7};
  PlacementMatrices p;
  p.placement = "same-line";
  p.per_class_ns = {{0, additive_map(units, 1)}, {1, additive_map(units, 0)}};
  p.headline_ns = additive_map(units, -1);
  for (const auto& [c, m] : p.per_class_ns) p.fits.push_back(fit_additive(m));
  Topology groups;
  groups.groups = {{"S0 GPC0", {0, 1, 2, 3}}, {"S1 GPC1", {4, 5}}, {"S1 GPC2", {6, 7}}};
  RunSummary s = two_sides();
  add_map_views(s, {p}, groups);
  ASSERT_TRUE(s.has_views);

  ASSERT_EQ(s.extremes.size(), 1u);
  const RunSummary::Extremes& e = s.extremes.front();
  EXPECT_EQ(e.classes, (std::vector<int>{0, 1}));
  ASSERT_EQ(e.slowest.size(), 10u);
  // The slowest pairs hold unit 5; each pair once.
  EXPECT_TRUE(e.slowest.front().a == 5 || e.slowest.front().b == 5);
  EXPECT_EQ(e.slowest.front().per_class_ns.size(), 2u);
  EXPECT_EQ(e.fastest.front().a, 0);  // the two units of the smallest terms
  EXPECT_EQ(e.fastest.front().b, 1);
  EXPECT_EQ(e.fastest.front().group_a, "S0 GPC0");
  for (const RunSummary::PairValue& v : e.fastest) EXPECT_LT(v.a, v.b);

  ASSERT_EQ(s.unit_terms.units.size(), 8u);
  ASSERT_FALSE(s.standing_out.empty());
  EXPECT_EQ(s.standing_out.front().unit, 5);
  EXPECT_NEAR(s.standing_out.front().from_median_ns, 30.0, 1.5);
  EXPECT_EQ(s.standing_out.front().group, "S1 GPC1");
  EXPECT_EQ(s.standing_out.size(), 1u);

  // Side x side and group x group, per class and every class together.
  std::size_t by_side = 0, by_group = 0;
  for (const RunSummary::BlockMeans& b : s.blocks) {
    (b.by == "side" ? by_side : by_group)++;
    const std::size_t n = b.blocks.size();
    for (std::size_t i = 0; i < n * n; ++i) EXPECT_TRUE(b.mean_ns[i].has_value());
  }
  EXPECT_EQ(by_side, 3u);
  EXPECT_EQ(by_group, 3u);
  const RunSummary::BlockMeans& class1 = s.blocks[1];
  ASSERT_EQ(class1.home_class, 1);
  ASSERT_EQ(class1.blocks, (std::vector<std::string>{"side0", "side1"}));
  // Class 1 is near side 1: side 0 pays 20 ns twice inside itself, once towards side 1.
  EXPECT_GT(*class1.mean_ns[0], *class1.mean_ns[1]);
  EXPECT_EQ(class1.cells[0], 12u);  // 4 x 3 ordered cells
}

TEST(MapViews, OneClassHasTermsButNoPerClassValues) {
  const std::vector<int> units{0, 1, 2, 3};
  PlacementMatrices p{"same-line", additive_map(units, -1), {}, {}};
  p.fits.push_back(fit_additive(p.headline_ns));
  RunSummary s;
  s.run.units = units;
  add_map_views(s, {p}, Topology{});
  ASSERT_EQ(s.extremes.size(), 1u);
  EXPECT_TRUE(s.extremes.front().classes.empty());
  EXPECT_EQ(s.extremes.front().slowest.size(), 6u);  // every pair of four units
  EXPECT_EQ(s.unit_terms.units.size(), 4u);
  EXPECT_TRUE(s.blocks.empty()) << "one side and no groups: nothing to zoom out to";
}

}  // namespace
}  // namespace cumap
