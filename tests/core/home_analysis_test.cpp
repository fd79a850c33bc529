// The analyses that read maps through homes: the additive fit, agreement of
// two maps, and the side/home structure table.
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "core/homes.hpp"

namespace cumap {
namespace home_analysis_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

ValueMatrix map_of(const std::vector<int>& units, const std::function<double(int, int)>& cell) {
  ValueMatrix m = ValueMatrix::filled(units, kNan);
  for (std::size_t r = 0; r < units.size(); ++r)
    for (std::size_t c = 0; c < units.size(); ++c)
      if (r != c) m.at(r, c) = cell(units[r], units[c]);
  return m;
}

TEST(AdditiveFit, RecoversUnitTermsAndConstant) {
  const std::vector<int> units{0, 2, 3, 7, 8, 11};
  const std::vector<double> u{-30, 10, 5, 25, -20, 10};  // sums to 0, the fit's gauge
  std::vector<double> term_of(12, 0.0);
  for (std::size_t i = 0; i < units.size(); ++i) term_of[static_cast<std::size_t>(units[i])] = u[i];
  ValueMatrix m = map_of(units, [&](int a, int b) { return 600.0 + term_of[a] + term_of[b]; });
  m.at(1, 4) = kNan;  // a timed-out cell is just one observation fewer
  const AdditiveFit fit = fit_additive(m);
  EXPECT_EQ(fit.units, units);
  ASSERT_EQ(fit.unit_term.size(), units.size());
  for (std::size_t i = 0; i < units.size(); ++i) EXPECT_NEAR(fit.unit_term[i], u[i], 1e-6) << units[i];
  EXPECT_NEAR(fit.constant, 600.0, 1e-6);
  EXPECT_NEAR(fit.r2, 1.0, 1e-9);
}

TEST(AdditiveFit, AsymmetricCellsAreSeparateObservations) {
  // a->b = 100 + u(a) + u(b) + 10, b->a the same - 10: the directions average out.
  const std::vector<int> units{0, 1, 2, 3};
  const std::vector<double> u{-3, -1, 1, 3};
  const ValueMatrix m = map_of(units, [&](int a, int b) { return 100.0 + u[a] + u[b] + (a < b ? 10.0 : -10.0); });
  const AdditiveFit fit = fit_additive(m);
  for (std::size_t i = 0; i < units.size(); ++i) EXPECT_NEAR(fit.unit_term[i], u[i], 1e-9);
  EXPECT_NEAR(fit.constant, 100.0, 1e-9);
  EXPECT_LT(fit.r2, 0.9);  // the direction is not additive
  EXPECT_GT(fit.r2, 0.0);
}

TEST(AdditiveFit, RandomMapExplainsLittle) {
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(300.0, 40.0);
  std::vector<int> units;
  for (int i = 0; i < 60; ++i) units.push_back(i);
  ValueMatrix m = ValueMatrix::filled(units, kNan);
  for (std::size_t r = 0; r < units.size(); ++r)
    for (std::size_t c = r + 1; c < units.size(); ++c) m.at(r, c) = m.at(c, r) = noise(rng);
  const AdditiveFit fit = fit_additive(m);
  EXPECT_LT(fit.r2, 0.15);
  EXPECT_NEAR(fit.constant, 300.0, 10.0);
}

TEST(AdditiveFit, EmptyMapGivesNaN) {
  const AdditiveFit fit = fit_additive(ValueMatrix::filled({0, 1, 2}, kNan));
  EXPECT_TRUE(std::isnan(fit.r2));
  EXPECT_TRUE(std::isnan(fit.constant));
  ASSERT_EQ(fit.unit_term.size(), 3u);
  EXPECT_TRUE(std::isnan(fit.unit_term[0]));
}

TEST(Agreement, KnownValues) {
  const std::vector<double> x{100, 200, 300, kNan, 400};
  const std::vector<double> y{110, 180, 360, 50, kNan};
  const Agreement a = agreement(x, y);
  EXPECT_EQ(a.n, 3u);
  // Relative differences 10/105, 20/190, 60/330: the median is 20/190.
  EXPECT_NEAR(a.median_rel_diff, 20.0 / 190.0, 1e-12);
  EXPECT_DOUBLE_EQ(a.median_x, 200.0);
  EXPECT_DOUBLE_EQ(a.median_y, 180.0);
  EXPECT_GT(a.pearson_r, 0.95);
  EXPECT_LT(a.pearson_r, 1.0);

  const Agreement same = agreement(std::vector<double>{1, 2, 3}, std::vector<double>{2, 4, 6});
  EXPECT_NEAR(same.pearson_r, 1.0, 1e-12);
  EXPECT_THROW(agreement(std::vector<double>{1}, std::vector<double>{1, 2}), std::invalid_argument);
}

TEST(Agreement, MapsNeedTheSameUnits) {
  const ValueMatrix a = map_of({0, 1, 2}, [](int r, int c) { return 100.0 + r + c; });
  const ValueMatrix b = map_of({0, 1, 2}, [](int r, int c) { return 200.0 + 2 * (r + c); });
  const Agreement ag = agreement(a, b);
  EXPECT_EQ(ag.n, 6u);  // off-diagonal cells only
  EXPECT_NEAR(ag.pearson_r, 1.0, 1e-12);
  EXPECT_THROW(agreement(a, map_of({0, 1, 3}, [](int, int) { return 1.0; })), std::invalid_argument);
  EXPECT_THROW(agreement(a, map_of({0, 2, 1}, [](int, int) { return 1.0; })), std::invalid_argument);
}

// A chip with two sides (units 0-3 and 4-7) and a line in each side's class:
// one way = (T(a) + T(b)) / 2 with T = 150 ns near the line, 250 ns far.
struct StructureTable : ::testing::Test {
  std::vector<int> units{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<int> side{0, 0, 0, 0, 1, 1, 1, 1};
  ValueMatrix map_for_class(int cls) const {
    return map_of(units, [&, cls](int a, int b) {
      const double ta = side[static_cast<std::size_t>(a)] == cls ? 150 : 250;
      const double tb = side[static_cast<std::size_t>(b)] == cls ? 150 : 250;
      return (ta + tb) / 2;
    });
  }
};

TEST_F(StructureTable, GroupsBySideAndHome) {
  const std::vector<StructureRow> rows = structure_table({map_for_class(0), map_for_class(1)}, units, side);
  ASSERT_EQ(rows.size(), 3u);  // same-side with one near unit cannot happen
  EXPECT_EQ(rows[0].relation, "same-side");
  EXPECT_EQ(rows[0].near_units, 2);
  EXPECT_DOUBLE_EQ(rows[0].median_ns, 150.0);
  EXPECT_EQ(rows[0].cells, 12u);  // 6 pairs per side, each once
  EXPECT_EQ(rows[1].relation, "same-side");
  EXPECT_EQ(rows[1].near_units, 0);
  EXPECT_DOUBLE_EQ(rows[1].median_ns, 250.0);
  EXPECT_EQ(rows[1].cells, 12u);
  EXPECT_EQ(rows[2].relation, "other-side");
  EXPECT_EQ(rows[2].near_units, 1);
  EXPECT_DOUBLE_EQ(rows[2].median_ns, 200.0);
  EXPECT_DOUBLE_EQ(rows[2].p05_ns, 200.0);
  EXPECT_DOUBLE_EQ(rows[2].p95_ns, 200.0);
  EXPECT_EQ(rows[2].cells, 32u);
}

TEST_F(StructureTable, OrderedMapsCountBothDirectionsAndSkipNaN) {
  ValueMatrix m = map_for_class(0);
  m.at(0, 4) += 20;  // a->b differs from b->a: both are measurements
  m.at(1, 2) = kNan;
  m.at(2, 1) = kNan;  // a pair that timed out
  const std::vector<StructureRow> rows = structure_table({m}, units, side);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].cells, 5u);   // 6 pairs on side 0, one missing
  EXPECT_EQ(rows[2].cells, 17u);  // 16 cross pairs, one with two directions
  EXPECT_DOUBLE_EQ(rows[2].median_ns, 200.0);
}

TEST_F(StructureTable, UnitWithoutSideThrows) {
  EXPECT_THROW(structure_table({map_for_class(0)}, {0, 1, 2, 3, 4, 5, 6}, {0, 0, 0, 0, 1, 1, 1}),
               std::invalid_argument);
  EXPECT_THROW(structure_table({}, units, {0, 1}), std::invalid_argument);
}

}  // namespace
}  // namespace cumap
