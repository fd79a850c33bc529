#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "render/color_scale.hpp"

namespace cumap::render {
namespace {

// The step between ticks is 1, 2 or 5 times a power of ten.
bool is_nice_step(double step) {
  const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (std::abs(mantissa - m) < 1e-6) return true;
  return false;
}

TEST(NiceTicks, unit_range) {
  EXPECT_EQ(format_ticks(nice_ticks(0.0, 1.0)), (std::vector<std::string>{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
}

TEST(NiceTicks, latency_range) {
  EXPECT_EQ(format_ticks(nice_ticks(180.0, 1030.0)),
            (std::vector<std::string>{"200", "400", "600", "800", "1000"}));
}

// A line plot's axis steps by 2.5 where 1-2-5 gives too few ticks: each
// label must name its tick ("0, 2, 5, 8" named 0, 2.5, 5, 7.5).
TEST(FormatTicks, steps_of_two_and_a_half_keep_their_half) {
  EXPECT_EQ(format_ticks({0, 2.5, 5, 7.5, 10, 12.5}),
            (std::vector<std::string>{"0.0", "2.5", "5.0", "7.5", "10.0", "12.5"}));
  EXPECT_EQ(format_ticks({0, 0.25, 0.5, 0.75}), (std::vector<std::string>{"0.00", "0.25", "0.50", "0.75"}));
  EXPECT_EQ(format_ticks({0, 25, 50, 75, 100}), (std::vector<std::string>{"0", "25", "50", "75", "100"}));
  EXPECT_EQ(format_ticks({0, 250, 500, 750}), (std::vector<std::string>{"0", "250", "500", "750"}));
}

TEST(FormatTicks, every_label_reads_back_as_its_tick) {
  for (double step : {0.025, 0.25, 2.5, 25.0, 0.2, 5.0, 1.0, 0.001})
    for (int count : {4, 5, 6}) {
      std::vector<double> ticks;
      for (int i = 0; i < count; ++i) ticks.push_back(i * step);
      const std::vector<std::string> labels = format_ticks(ticks);
      for (std::size_t i = 0; i < ticks.size(); ++i)
        EXPECT_NEAR(std::stod(labels[i]), ticks[i], 1e-9 + 1e-9 * ticks[i]) << "step " << step << ": " << labels[i];
    }
}

TEST(NiceTicks, random_ranges_give_round_evenly_spaced_ticks_inside) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> exponent(-2.0, 5.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int in_range = 0;
  for (int i = 0; i < 2000; ++i) {
    const double lo = std::pow(10.0, exponent(rng)) * unit(rng);
    const double hi = lo + std::pow(10.0, exponent(rng));
    const auto ticks = nice_ticks(lo, hi);
    // 1-2-5 steps cannot always hit 5..7 (0.17 wide: 9 ticks at 0.02 or 3 at
    // 0.05), but they never miss by much, and usually hit.
    ASSERT_GE(ticks.size(), 3u) << lo << ".." << hi;
    ASSERT_LE(ticks.size(), 10u) << lo << ".." << hi;
    if (ticks.size() >= 5 && ticks.size() <= 7) ++in_range;
    const double step = ticks[1] - ticks[0];
    EXPECT_TRUE(is_nice_step(step)) << step;
    for (std::size_t k = 0; k < ticks.size(); ++k) {
      EXPECT_GE(ticks[k], lo - 1e-9 * hi);
      EXPECT_LE(ticks[k], hi + 1e-9 * hi);
      if (k > 0) {
        EXPECT_NEAR(ticks[k] - ticks[k - 1], step, 1e-6 * step);
      }
    }
  }
  // With only 1-2-5 steps, about two ranges in three can get 5..7 ticks.
  EXPECT_GT(in_range, 2000 * 6 / 10);
}

TEST(ColorScale, auto_range_covers_finite_cells_only) {
  ValueMatrix m = ValueMatrix::filled({0, 1, 2}, std::nan(""));
  m.at(0, 1) = 150.0;
  m.at(1, 0) = 420.0;
  m.at(2, 1) = 300.0;
  const ColorScale scale = choose_color_scale({HeatmapPanel{"a", m}}, std::nullopt);
  EXPECT_EQ(scale.min, 150.0);
  EXPECT_EQ(scale.max, 420.0);
  const ColorScale fixed = choose_color_scale({HeatmapPanel{"a", m}}, std::pair{100.0, 500.0});
  EXPECT_EQ(fixed.min, 100.0);
  EXPECT_DOUBLE_EQ(fixed.fraction(300.0), 0.5);
}

// A CPU's home table, 4.80-4.96 ns: 3 % of the median. Drawn over the whole
// colormap it would show noise as structure; the range is widened to
// kMinRelativeSpan of the median around it, and holds every value.
TEST(ColorScale, a_narrow_range_is_widened_around_the_median) {
  const std::vector<double> values{4.80, 4.85, 4.88, 4.90, 4.96};
  const ColorScale scale = choose_color_scale({std::span<const double>(values)}, std::nullopt);
  EXPECT_NEAR(scale.max - scale.min, kMinRelativeSpan * 4.88, 1e-9);
  EXPECT_NEAR((scale.min + scale.max) / 2, 4.88, 1e-9);
  EXPECT_LE(scale.min, 4.80);
  EXPECT_GE(scale.max, 4.96);
  // The cells use a third of the colormap, not all of it.
  EXPECT_NEAR(scale.fraction(4.96) - scale.fraction(4.80), 0.16 / 0.488, 1e-9);
  // Lopsided: the median near one end; the range still holds both ends.
  const std::vector<double> lopsided{100.0, 100.5, 101.0, 101.0, 108.0};
  const ColorScale grown = choose_color_scale({std::span<const double>(lopsided)}, std::nullopt);
  EXPECT_LE(grown.min, 100.0);
  EXPECT_GE(grown.max, 108.0);
}

// An H100's per-class maps (262-456 ns around 350) keep their full contrast,
// and a fixed --scale is never widened.
TEST(ColorScale, a_wide_range_and_a_fixed_scale_are_kept) {
  const std::vector<double> values{262.4, 274.0, 347.0, 349.6, 423.0, 456.6};
  const ColorScale scale = choose_color_scale({std::span<const double>(values)}, std::nullopt);
  EXPECT_EQ(scale.min, 262.4);
  EXPECT_EQ(scale.max, 456.6);
  const std::vector<double> narrow{4.80, 4.96};
  const ColorScale fixed = choose_color_scale({std::span<const double>(narrow)}, std::pair{4.80, 4.96});
  EXPECT_EQ(fixed.min, 4.80);
  EXPECT_EQ(fixed.max, 4.96);
}

TEST(ColorScale, flat_and_empty_matrices_get_a_usable_range) {
  const ColorScale flat = choose_color_scale({HeatmapPanel{"a", ValueMatrix::filled({0, 1}, 250.0)}}, std::nullopt);
  EXPECT_LT(flat.min, 250.0);
  EXPECT_GT(flat.max, 250.0);
  EXPECT_DOUBLE_EQ(flat.fraction(250.0), 0.5);
  const ColorScale empty =
      choose_color_scale({HeatmapPanel{"a", ValueMatrix::filled({0, 1}, std::nan(""))}}, std::nullopt);
  EXPECT_LT(empty.min, empty.max);
}

}  // namespace
}  // namespace cumap::render
