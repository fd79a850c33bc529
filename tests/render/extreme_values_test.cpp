// Value ranges at the edges of double: huge, denormal, zero-width. The
// picture must still be right (or flat), never an overflow or a division by zero.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "render/render.hpp"
#include "png_reader.hpp"
#include "render/color_scale.hpp"
#include "render/font.hpp"
#include "render/heatmap_parts.hpp"
#include "report/render_file.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

constexpr double kDenormal = 5e-324;
constexpr double kLargest = std::numeric_limits<double>::max();

ValueMatrix two_by_two(double a, double b) {
  ValueMatrix m = ValueMatrix::filled({0, 1}, kNaN);
  m.at(0, 1) = a;
  m.at(1, 0) = b;
  return m;
}

TEST(ExtremeScale, HugeRangeMapsItsEndsToTheEndsOfTheColormap) {
  for (const auto& [lo, hi] : {std::pair{-1e308, 1e308}, std::pair{-kLargest, kLargest}, std::pair{0.0, kLargest}}) {
    const render::ColorScale scale = render::choose_color_scale({HeatmapPanel{"", two_by_two(lo, hi)}}, std::nullopt);
    EXPECT_DOUBLE_EQ(scale.fraction(lo), 0.0) << lo;
    EXPECT_DOUBLE_EQ(scale.fraction(hi), 1.0) << hi;
    EXPECT_NEAR(scale.fraction(lo * 0.5 + hi * 0.5), 0.5, 1e-12);
  }
  const render::ColorScale fixed = render::choose_color_scale({HeatmapPanel{"", two_by_two(1, 2)}}, std::pair{-1e308, 1e308});
  EXPECT_DOUBLE_EQ(fixed.fraction(0.0), 0.5);
  EXPECT_DOUBLE_EQ(fixed.fraction(1e308), 1.0);
}

TEST(ExtremeScale, DenormalOrZeroWidthIsFlat) {
  for (const auto& [lo, hi] : {std::pair{0.0, kDenormal}, std::pair{kDenormal, 2 * kDenormal}, std::pair{kLargest, kLargest},
                               std::pair{-kLargest, -kLargest}, std::pair{0.0, 0.0}}) {
    SCOPED_TRACE(testing::Message() << lo << ".." << hi);
    const render::ColorScale scale = render::choose_color_scale({HeatmapPanel{"", two_by_two(lo, hi)}}, std::nullopt);
    ASSERT_TRUE(std::isfinite(scale.min) && std::isfinite(scale.max));
    EXPECT_DOUBLE_EQ(scale.fraction(lo), 0.5);
    EXPECT_DOUBLE_EQ(scale.fraction(hi), 0.5);
    EXPECT_TRUE(std::isnan(scale.fraction(kNaN)));
  }
  // A scale given flat (as a caller may) divides by nothing either.
  const render::ColorScale given{0.0, kDenormal};
  EXPECT_DOUBLE_EQ(given.fraction(123.0), 0.5);
}

TEST(ExtremeScale, TicksAndLabelsStayFiniteAndShort) {
  for (const auto& [lo, hi] : {std::pair{-1e308, 1e308}, std::pair{-kLargest, kLargest}, std::pair{0.0, kDenormal},
                               std::pair{1e300, 1e300 * (1 + 1e-15)}, std::pair{0.0, 1e-310}, std::pair{1e15, 1e15 + 1},
                               std::pair{8.2890456e-317, 4.728282023927194e-308}}) {  // found by fuzz_color_scale
    SCOPED_TRACE(testing::Message() << lo << ".." << hi);
    const std::vector<double> ticks = render::nice_ticks(lo, hi);
    ASSERT_FALSE(ticks.empty());
    EXPECT_LE(ticks.size(), 12u);
    for (double t : ticks) EXPECT_TRUE(std::isfinite(t)) << t;
    for (const std::string& label : render::format_ticks(ticks)) EXPECT_LE(label.size(), 24u) << label;
  }
  // Ordinary ranges keep their plain labels.
  EXPECT_EQ(render::format_ticks(render::nice_ticks(180.0, 1030.0)),
            (std::vector<std::string>{"200", "400", "600", "800", "1000"}));
}

// The colours of the two off-diagonal cells of a 2x2 map read from CSV,
// drawn and written as `cumap render` does, then decoded from the PNG.
struct CellColours {
  Rgb upper;  // row 0, column 1
  Rgb lower;  // row 1, column 0
};

class ExtremeFile : public ::testing::Test {
 protected:
  CellColours render(const std::string& csv, const std::string& scale = "auto") {
    RenderRequest r;
    r.csv = dir_.file("m.csv", csv);
    r.png = dir_ / "m.png";
    r.scale = scale;
    r.title = "t";
    render_csv_file(r);
    const Image image = test::read_png(r.png);

    const RenderPlan plan = plan_render(r);
    render::Font font(render::default_font_path());
    const render::HeatmapLayout layout = render::plan_heatmap(font, {plan.panel}, plan.style);
    const render::Rect& panel = layout.panels.at(0);
    // Near the cell's corner: its centre may carry the value as text.
    const auto background = [&](int row, int column) {
      return image.pixel(panel.x + column * layout.cell_width + 2, panel.y + row * layout.cell_height + 2);
    };
    return {background(0, 1), background(1, 0)};
  }
  test::TempDir dir_;
};

TEST_F(ExtremeFile, HugeCellsGetBothEndColours) {
  const CellColours cells = render("unit,0,1\n0,,-1e308\n1,1e308,\n");
  EXPECT_EQ(cells.upper, colormap("viridis", 0.0));
  EXPECT_EQ(cells.lower, colormap("viridis", 1.0));
}

TEST_F(ExtremeFile, HugeScaleCentresOrdinaryCells) {
  const CellColours cells = render("unit,0,1\n0,,100\n1,200,\n", "-1e308:1e308");
  EXPECT_EQ(cells.upper, colormap("viridis", 0.5));
  EXPECT_EQ(cells.lower, colormap("viridis", 0.5));
}

TEST_F(ExtremeFile, DenormalRangeIsDrawnFlat) {
  const CellColours cells = render("unit,0,1\n0,,0\n1,4.9406564584124654e-324,\n");
  EXPECT_EQ(cells.upper, colormap("viridis", 0.5));
  EXPECT_EQ(cells.lower, colormap("viridis", 0.5));
}

}  // namespace
}  // namespace cumap
