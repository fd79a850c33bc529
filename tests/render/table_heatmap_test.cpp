// A rectangular table (home discovery's units x flag lines): rows and columns
// with their own labels, groups and cell sizes, drawn by the map's renderer.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "render/render.hpp"
#include "png_reader.hpp"
#include "render/font.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap {
namespace table_heatmap_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

constexpr double kLo = 100.0;
constexpr double kHi = 500.0;

HeatmapAxis numbered_axis(int count, int step, std::vector<AxisGroup> groups) {
  HeatmapAxis axis;
  for (int i = 0; i < count; ++i) axis.labels.push_back(std::to_string(i * step));
  axis.groups = std::move(groups);
  return axis;
}

// `rows` units on two sides by `columns` lines (byte offsets) in two home
// classes, values spread over the scale.
HeatmapTable units_by_lines(int rows, int columns) {
  HeatmapTable t;
  t.title = "units (rows) x flag lines by home class (columns)";
  t.rows = numbered_axis(rows, 1, {{0, rows / 2, "S0 GPC0"}, {rows / 2, rows, "S1 GPC1"}});
  t.columns = numbered_axis(columns, 128, {{0, columns / 2, "home class 0"}, {columns / 2, columns, "home class 1"}});
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) t.values.push_back(kLo + (kHi - kLo) * ((r * 7 + c * 3) % 11) / 10.0);
  return t;
}

class Table : public ::testing::Test {
 protected:
  void SetUp() override {
    style_.title = "Test GPU - home discovery";
    style_.scale = std::pair{kLo, kHi};
    style_.value_label = "ns per dependent atomic";
  }
  // Draws, encodes and decodes the table; the layout it was drawn with.
  render::HeatmapLayout draw(const HeatmapTable& table) {
    render::Font font(render::default_font_path());
    const render::HeatmapLayout layout = render::plan_table_heatmap(font, table, style_);
    image_ = test::decode_png(encode_png(render_table_heatmap(table, style_)));
    return layout;
  }
  Rgb cell_center(const render::HeatmapLayout& l, int r, int c) const {
    const render::Rect& p = l.panels[0];
    return image_.pixel(p.x + c * l.cell_width + l.cell_width / 2, p.y + r * l.cell_height + l.cell_height / 2);
  }
  int ink_in(const render::Rect& r) const {
    int count = 0;
    for (int y = r.y; y < r.bottom(); ++y)
      for (int x = r.x; x < r.right(); ++x) count += image_.pixel(x, y) != Rgb{255, 255, 255};
    return count;
  }
  HeatmapStyle style_;
  Image image_;
};

TEST_F(Table, png_has_the_expected_size_with_cells_sized_per_axis) {
  const render::HeatmapLayout l = draw(units_by_lines(6, 40));
  EXPECT_EQ(image_.width, l.width);
  EXPECT_EQ(image_.height, l.height);
  // 6 rows get the tall cells of a 6-unit map, 40 columns those of a 40-unit one.
  EXPECT_EQ(l.cell_height, render::cell_size(6));
  EXPECT_EQ(l.cell_width, render::cell_size(40));
  EXPECT_EQ(l.cell_height, 64);
  EXPECT_EQ(l.cell_width, 16);
  ASSERT_EQ(l.panels.size(), 1u);
  EXPECT_EQ(l.panels[0].width, 40 * 16);
  EXPECT_EQ(l.panels[0].height, 6 * 64);
  EXPECT_GT(l.width, l.panels[0].right() + l.colorbar.width);
  EXPECT_GE(l.height, l.column_groups[0].bottom());
}

TEST_F(Table, an_h100_sized_table_stays_bounded) {
  const render::HeatmapLayout l = draw(units_by_lines(132, 512));
  EXPECT_EQ(image_.width, l.width);
  EXPECT_EQ(image_.height, l.height);
  EXPECT_EQ(l.panels[0].width, 512 * 2);
  EXPECT_EQ(l.panels[0].height, 132 * 6);
  EXPECT_LT(l.width, 1400);
  EXPECT_LT(l.height, 1100);
}

TEST_F(Table, every_cell_has_its_colour_with_no_diagonal) {
  HeatmapTable t = units_by_lines(6, 40);
  t.values[2 * 40 + 2] = 300.0;          // (2,2) would be a map's diagonal
  t.values[4 * 40 + 31] = std::nan("");  // a line a unit could not time
  const render::HeatmapLayout l = draw(t);
  EXPECT_EQ(cell_center(l, 2, 2), colormap("viridis", 0.5));
  EXPECT_EQ(cell_center(l, 4, 31), kMissingGray);
  for (int r : {0, 3, 5})
    for (int c : {1, 19, 39}) {
      const double v = t.values[static_cast<std::size_t>(r * 40 + c)];
      EXPECT_EQ(cell_center(l, r, c), colormap("viridis", (v - kLo) / (kHi - kLo))) << r << "," << c;
    }
}

TEST_F(Table, separators_follow_each_axis_own_groups) {
  const render::HeatmapLayout l = draw(units_by_lines(6, 40));
  const render::Rect& p = l.panels[0];
  // Column group boundary (line 20): a vertical line through every row.
  const int x = p.x + 20 * l.cell_width;
  for (int r : {0, 5}) EXPECT_EQ(image_.pixel(x, p.y + r * l.cell_height + 5), render::kSeparator) << r;
  EXPECT_NE(image_.pixel(x + 2, p.y + 5), render::kSeparator);
  // Row group boundary (unit 3): a horizontal line through every column.
  const int y = p.y + 3 * l.cell_height;
  for (int c : {0, 39}) EXPECT_EQ(image_.pixel(p.x + c * l.cell_width + 5, y), render::kSeparator) << c;
  EXPECT_NE(image_.pixel(p.x + 5, y + 2), render::kSeparator);
  // Nowhere else: not between rows of one group.
  EXPECT_NE(image_.pixel(p.x + 5, p.y + 1 * l.cell_height), render::kSeparator);
}

TEST_F(Table, both_axes_are_labelled_and_named) {
  const render::HeatmapLayout l = draw(units_by_lines(6, 40));
  EXPECT_GT(ink_in(l.title), 50);
  EXPECT_GT(ink_in(l.panel_titles[0]), 50);
  EXPECT_GT(ink_in(l.row_labels[0]), 20);
  EXPECT_GT(ink_in(l.column_labels[0]), 100);
  EXPECT_GT(ink_in(l.row_groups[0]), 20);
  EXPECT_GT(ink_in(l.column_groups[0]), 50);
  EXPECT_GT(ink_in(l.value_label), 30);
  // Line offsets are wider than unit ids: the label bands differ.
  EXPECT_GT(l.column_labels[0].height, l.row_labels[0].width);
}

TEST_F(Table, inconsistent_tables_are_usage_errors) {
  HeatmapTable t = units_by_lines(4, 8);
  t.values.pop_back();
  EXPECT_THROW(render_table_heatmap(t, style_), UsageError);
  t = units_by_lines(4, 8);
  t.columns.groups = {{0, 3, "a"}, {4, 8, "b"}};  // a gap
  EXPECT_THROW(render_table_heatmap(t, style_), UsageError);
  t.columns.groups = {{0, 4, "a"}, {2, 8, "b"}};  // an overlap
  EXPECT_THROW(render_table_heatmap(t, style_), UsageError);
  t.columns.groups = {{0, 4, "a"}};  // short of the end
  EXPECT_THROW(render_table_heatmap(t, style_), UsageError);
  t = units_by_lines(4, 8);
  t.rows = {};
  t.values.clear();
  EXPECT_THROW(render_table_heatmap(t, style_), UsageError);
}

}  // namespace
}  // namespace cumap
