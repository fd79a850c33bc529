// Tiny maps (the CPU backend on a 2-core machine): large cells with their
// values printed in them, and titles that do not collide.
#include <cmath>

#include <gtest/gtest.h>

#include "render/render.hpp"
#include "render/font.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap {
namespace small_map_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

// Cell (0,1) at the bottom of the scale (dark), (1,0) at the top (bright).
ValueMatrix two_units(double low, double high) {
  ValueMatrix m = ValueMatrix::filled({0, 1}, std::nan(""));
  m.at(0, 1) = low;
  m.at(1, 0) = high;
  return m;
}

struct Drawn {
  render::HeatmapLayout layout;
  Image image;
};

Drawn draw(const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style) {
  render::Font font(render::default_font_path());
  return {render::plan_heatmap(font, panels, style), render_heatmap(panels, style)};
}

// Pixels of cell (r, c) of a panel, skipping a one-pixel rim (separators, frame).
template <class F>
void for_each_cell_pixel(const Drawn& d, std::size_t panel, int r, int c, F f) {
  const render::Rect& p = d.layout.panels[panel];
  const int w = d.layout.cell_width, h = d.layout.cell_height;
  for (int y = p.y + r * h + 1; y < p.y + (r + 1) * h - 1; ++y)
    for (int x = p.x + c * w + 1; x < p.x + (c + 1) * w - 1; ++x) f(d.image.pixel(x, y));
}

int pixels_not(const Drawn& d, std::size_t panel, int r, int c, Rgb color) {
  int count = 0;
  for_each_cell_pixel(d, panel, r, c, [&](Rgb p) { count += p != color; });
  return count;
}

int luminance(Rgb c) { return (299 * c.r + 587 * c.g + 114 * c.b) / 1000; }

class SmallMap : public ::testing::Test {
 protected:
  void SetUp() override {
    panels_ = {HeatmapPanel{"same-line (median 223 ns)", two_units(200.0, 240.0)},
               HeatmapPanel{"split-line (median 225 ns)", two_units(210.0, 230.0)}};
    style_.title = "AMD EPYC - one-way CAS ping-pong latency, 2 cpus";
    style_.scale = std::pair{200.0, 240.0};
  }
  std::vector<HeatmapPanel> panels_;
  HeatmapStyle style_;
};

TEST_F(SmallMap, values_are_printed_in_large_cells) {
  const Drawn d = draw(panels_, style_);
  ASSERT_GE(d.layout.cell_width, render::kMinCellForValues);
  const Rgb low = colormap("viridis", 0.0), high = colormap("viridis", 1.0);
  EXPECT_GT(pixels_not(d, 0, 0, 1, low), 40) << "no value text in the dark cell";
  EXPECT_GT(pixels_not(d, 0, 1, 0, high), 40) << "no value text in the bright cell";
  // The diagonal has no value: it stays plain gray.
  EXPECT_EQ(pixels_not(d, 0, 0, 0, kMissingGray), 0);
}

TEST_F(SmallMap, value_text_contrasts_with_its_cell) {
  const Drawn d = draw(panels_, style_);
  int brightest_on_dark = 0, darkest_on_bright = 255;
  for_each_cell_pixel(d, 0, 0, 1, [&](Rgb p) { brightest_on_dark = std::max(brightest_on_dark, luminance(p)); });
  for_each_cell_pixel(d, 0, 1, 0, [&](Rgb p) { darkest_on_bright = std::min(darkest_on_bright, luminance(p)); });
  EXPECT_GT(brightest_on_dark, 200) << "text on a dark cell should be white";
  EXPECT_LT(darkest_on_bright, 80) << "text on a bright cell should be dark";
}

TEST_F(SmallMap, missing_values_print_nothing) {
  panels_[0].matrix.at(0, 1) = std::nan("");
  const Drawn d = draw(panels_, style_);
  EXPECT_EQ(pixels_not(d, 0, 0, 1, kMissingGray), 0);
}

TEST_F(SmallMap, panel_title_ink_stays_in_its_own_box) {
  const Drawn d = draw(panels_, style_);
  const render::Rect& a = d.layout.panel_titles[0];
  const render::Rect& b = d.layout.panel_titles[1];
  ASSERT_LE(a.right(), b.x);
  int ink = 0;
  for (int y = a.y; y < a.bottom(); ++y)
    for (int x = 0; x < d.image.width; ++x) {
      if (d.image.pixel(x, y) == Rgb{255, 255, 255}) continue;
      ++ink;
      EXPECT_TRUE((x >= a.x && x < a.right()) || (x >= b.x && x < b.right())) << "stray title ink at " << x << "," << y;
    }
  EXPECT_GT(ink, 100);
}

TEST_F(SmallMap, main_title_is_not_cut) {
  const Drawn d = draw(panels_, style_);
  const render::Rect& t = d.layout.title;
  // The outermost columns along the title's band stay white: nothing cut at the edges.
  for (int y = t.y; y < t.bottom(); ++y)
    for (int x : {0, 1, 2, 3, d.image.width - 4, d.image.width - 3, d.image.width - 2, d.image.width - 1})
      EXPECT_EQ(d.image.pixel(x, y), (Rgb{255, 255, 255})) << x << "," << y;
  EXPECT_GE(d.image.width, t.width + 32);
}

TEST_F(SmallMap, values_share_decimals_and_drop_them_when_cramped) {
  render::Font font(render::default_font_path());
  render::HeatmapLayout layout = render::plan_heatmap(font, panels_, style_);
  const auto grids = [&] { return render::map_grids(panels_, style_); };  // they see the panels as edited
  EXPECT_EQ(render::cell_value_decimals(font, layout, grids()), 1);  // "200.0" fits 80 px
  panels_[1].matrix.at(0, 1) = 123456.0;
  EXPECT_EQ(render::cell_value_decimals(font, layout, grids()), 0);
  panels_[1].matrix.at(0, 1) = 1.0e12;  // 13 digits fit no cell
  EXPECT_EQ(render::cell_value_decimals(font, layout, grids()), std::nullopt);
  layout.cell_value_px = 0;  // cells too small for values
  panels_[1].matrix.at(0, 1) = 210.0;
  EXPECT_EQ(render::cell_value_decimals(font, layout, grids()), std::nullopt);
}

TEST(TextColor, picks_the_stronger_contrast) {
  EXPECT_EQ(render::text_color_on(colormap("viridis", 0.0)), (Rgb{255, 255, 255}));
  EXPECT_EQ(render::text_color_on(colormap("viridis", 1.0)), (Rgb{34, 34, 34}));
  EXPECT_EQ(render::text_color_on(colormap("magma", 1.0)), (Rgb{34, 34, 34}));
  EXPECT_EQ(render::text_color_on(Rgb{0, 0, 128}), (Rgb{255, 255, 255}));
}

TEST(MidMap, cells_without_room_for_values_are_plain) {
  ValueMatrix m = ValueMatrix::filled({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 300.0);
  HeatmapStyle style;
  style.scale = std::pair{200.0, 400.0};
  const Drawn d = draw({HeatmapPanel{"", m}}, style);
  ASSERT_LT(d.layout.cell_width, render::kMinCellForValues);
  EXPECT_EQ(pixels_not(d, 0, 3, 7, colormap("viridis", 0.5)), 0);
}

}  // namespace
}  // namespace cumap
