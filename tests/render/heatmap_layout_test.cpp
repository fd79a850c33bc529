#include <gtest/gtest.h>

#include "render/heatmap_layout.hpp"

namespace cumap::render {
namespace {

LayoutInput typical_input(int units, int panels, bool groups) {
  LayoutInput in;
  in.rows = units;
  in.columns = units;
  in.panels = panels;
  in.text = {.title_width = 500, .title_height = 17, .panel_title_height = 14, .row_label_width = 20,
             .column_label_width = 20, .label_height = 8, .row_group_label_height = groups ? 12 : 0,
             .column_group_label_height = groups ? 12 : 0, .tick_label_width = 28, .tick_label_height = 9,
             .value_label_height = 13};
  return in;
}

bool inside(const Rect& r, const HeatmapLayout& l) { return r.x >= 0 && r.y >= 0 && r.right() <= l.width && r.bottom() <= l.height; }
bool overlap(const Rect& a, const Rect& b) {
  return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

TEST(HeatmapLayout, cell_size_follows_unit_count) {
  EXPECT_EQ(cell_size(2), 80);  // a 2-unit panel as tall as the colorbar
  EXPECT_EQ(cell_size(4), 80);
  EXPECT_EQ(cell_size(8), 48);
  EXPECT_EQ(cell_size(16), 24);
  EXPECT_EQ(cell_size(24), 16);
  EXPECT_EQ(cell_size(50), 16);
  EXPECT_EQ(cell_size(100), 8);
  EXPECT_EQ(cell_size(132), 6);
  EXPECT_EQ(cell_size(256), 4);
  EXPECT_EQ(cell_size(512), 2);
  EXPECT_EQ(cell_size(1024), 1);
}

TEST(HeatmapLayout, label_step_keeps_labels_apart) {
  EXPECT_EQ(label_step(16, 11), 1);
  EXPECT_EQ(label_step(6, 11), 2);
  EXPECT_EQ(label_step(4, 11), 5);
  EXPECT_EQ(label_step(1, 11), 20);
}

TEST(HeatmapLayout, two_panels_with_groups_fit_without_overlap) {
  const HeatmapLayout l = layout_heatmap(typical_input(132, 2, true));
  ASSERT_EQ(l.panels.size(), 2u);
  EXPECT_EQ(l.cell_width, 6);
  EXPECT_EQ(l.cell_height, 6);
  EXPECT_EQ(l.panels[0].width, 132 * 6);
  EXPECT_EQ(l.panels[0].y, l.panels[1].y);
  EXPECT_GT(l.panels[1].x, l.panels[0].right());
  EXPECT_GT(l.colorbar.x, l.panels[1].right());
  EXPECT_GE(l.colorbar_labels.x, l.colorbar.right());
  EXPECT_GE(l.value_label.x, l.colorbar_labels.right());
  EXPECT_GT(l.title.bottom(), 0);
  EXPECT_LE(l.title.bottom(), l.panel_titles[0].y);
  EXPECT_LE(l.panel_titles[0].bottom(), l.panels[0].y);
  for (const Rect& r : {l.panels[0], l.panels[1], l.row_labels[0], l.column_labels[0], l.column_labels[1],
                        l.row_groups[0], l.column_groups[1], l.colorbar, l.colorbar_labels, l.value_label, l.title})
    EXPECT_TRUE(inside(r, l));
  EXPECT_FALSE(overlap(l.row_labels[0], l.panels[0]));
  EXPECT_FALSE(overlap(l.row_groups[0], l.row_labels[0]));
  EXPECT_FALSE(overlap(l.column_labels[0], l.panels[0]));
  EXPECT_FALSE(overlap(l.column_groups[0], l.column_labels[0]));
  // The second panel shares the first one's rows: no second set of row labels.
  EXPECT_EQ(l.row_labels[1].width, 0);
}

// Home discovery's table: 132 units by 512 lines, groups on both axes, and
// column labels (byte offsets) longer than the row labels (unit ids).
TEST(HeatmapLayout, rectangular_table_sizes_each_axis_on_its_own) {
  LayoutInput in = typical_input(132, 1, true);
  in.columns = 512;
  in.text.column_label_width = 30;
  const HeatmapLayout l = layout_heatmap(in);
  EXPECT_EQ(l.cell_height, 6);
  EXPECT_EQ(l.cell_width, 2);
  EXPECT_EQ(l.panels[0].width, 1024);
  EXPECT_EQ(l.panels[0].height, 792);
  // Both axes are longer than kLabelEveryUnitUpTo and have groups: their
  // group names ("S0 GPC1", "home class 0") label them, not every few ids.
  EXPECT_EQ(l.row_label_step, 0);
  EXPECT_EQ(l.column_label_step, 0);
  EXPECT_EQ(l.row_labels[0].width, 0);
  EXPECT_EQ(l.column_labels[0].height, 0);
  EXPECT_EQ(l.colorbar.height, 792);
  for (const Rect& r : {l.panels[0], l.row_labels[0], l.column_labels[0], l.row_groups[0], l.column_groups[0],
                        l.colorbar, l.colorbar_labels, l.value_label, l.title})
    EXPECT_TRUE(inside(r, l));
  EXPECT_FALSE(overlap(l.column_labels[0], l.panels[0]));
  EXPECT_FALSE(overlap(l.column_groups[0], l.column_labels[0]));
  EXPECT_FALSE(overlap(l.row_groups[0], l.row_labels[0]));
  EXPECT_EQ(l.cell_value_px, 0);
}

TEST(HeatmapLayout, every_unit_is_labelled_up_to_64_and_groups_label_longer_axes) {
  for (int units : {2, 8, 32, 50, 64}) {
    const HeatmapLayout l = layout_heatmap(typical_input(units, 1, true));
    EXPECT_EQ(l.row_label_step, 1) << units;
    EXPECT_EQ(l.column_label_step, 1) << units;
    // Neighbouring labels (8 px digits) do not touch.
    EXPECT_GE(l.cell_height, 8 + 4) << units;
    EXPECT_GT(l.row_labels[0].width, 0) << units;
  }
  // One map of 132 units (an H100's SMs) labels every unit too, its cells
  // grown to the labels; several maps of 132 label their groups only.
  const HeatmapLayout one = layout_heatmap(typical_input(132, 1, true));
  EXPECT_EQ(one.row_label_step, 1);
  EXPECT_EQ(one.column_label_step, 1);
  EXPECT_GE(one.cell_height, 8 + 4);
  const HeatmapLayout grouped = layout_heatmap(typical_input(132, 2, true));
  EXPECT_EQ(grouped.row_label_step, 0);
  EXPECT_EQ(grouped.column_label_step, 0);
  EXPECT_EQ(layout_heatmap(typical_input(133, 1, true)).row_label_step, 0) << "past 132, one map too";
  // Without groups an id-ordered axis keeps a ruler of every few ids.
  const HeatmapLayout plain = layout_heatmap(typical_input(132, 2, false));
  EXPECT_EQ(plain.row_label_step, 5);
  EXPECT_EQ(plain.column_label_step, 5);
}

TEST(HeatmapLayout, axis_titles_and_legend_sit_outside_the_labels) {
  LayoutInput in = typical_input(32, 2, true);
  in.text.axis_title_height = 15;
  in.text.legend_width = 300;
  in.text.legend_height = 14;
  const HeatmapLayout l = layout_heatmap(in);
  EXPECT_GT(l.row_titles[0].width, 0);
  EXPECT_EQ(l.row_titles[1].width, 0);  // the second panel shares the first one's rows
  EXPECT_LE(l.row_titles[0].right(), l.row_groups[0].x);
  EXPECT_LE(l.row_groups[0].right(), l.row_labels[0].x);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_GE(l.column_titles[i].y, l.column_groups[i].bottom());
    EXPECT_EQ(l.column_titles[i].height, 15);
    EXPECT_TRUE(inside(l.column_titles[i], l));
  }
  EXPECT_GE(l.legend.y, l.column_titles[0].bottom());
  EXPECT_TRUE(inside(l.legend, l));
  EXPECT_TRUE(inside(l.row_titles[0], l));
}

TEST(HeatmapLayout, panels_wrap_into_rows_that_line_up) {
  LayoutInput in = typical_input(132, 6, true);
  in.panels_per_row = 3;
  in.text.axis_title_height = 15;
  const HeatmapLayout l = layout_heatmap(in);
  ASSERT_EQ(l.panels.size(), 6u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(l.panels[i].x, l.panels[i + 3].x);
    EXPECT_EQ(l.panels[i].y, l.panels[0].y);
    EXPECT_EQ(l.panels[i + 3].y, l.panels[3].y);
    EXPECT_FALSE(overlap(l.panel_titles[i + 3], l.column_titles[i]));
  }
  EXPECT_GT(l.panel_titles[3].y, l.column_titles[0].bottom());
  // Each row of panels labels its rows once, on its first panel.
  EXPECT_GT(l.row_groups[3].width, 0);
  EXPECT_EQ(l.row_groups[4].width, 0);
  EXPECT_GT(l.colorbar.x, l.panels[2].right());
  for (const Rect& r : l.panels) EXPECT_TRUE(inside(r, l));
  EXPECT_TRUE(inside(l.column_titles[5], l));
}

TEST(HeatmapLayout, groups_on_one_axis_only) {
  LayoutInput in = typical_input(8, 1, false);
  in.columns = 64;
  in.text.column_group_label_height = 12;
  const HeatmapLayout l = layout_heatmap(in);
  EXPECT_EQ(l.row_groups[0].width, 0);
  EXPECT_EQ(l.column_groups[0].height, 12);
  EXPECT_GE(l.height, l.column_groups[0].bottom());
}

TEST(HeatmapLayout, wide_title_widens_the_picture) {
  LayoutInput in = typical_input(4, 1, false);
  in.text.title_width = 2000;
  const HeatmapLayout l = layout_heatmap(in);
  EXPECT_GE(l.width, 2000);
  EXPECT_TRUE(inside(l.title, l));
}

TEST(HeatmapLayout, small_maps_keep_a_readable_colorbar_and_large_ones_stay_bounded) {
  const HeatmapLayout small = layout_heatmap(typical_input(4, 1, false));
  EXPECT_GE(small.colorbar.height, 160);
  EXPECT_TRUE(inside(small.colorbar, small));
  const HeatmapLayout large = layout_heatmap(typical_input(1024, 2, true));
  EXPECT_EQ(large.panels[0].width, 1024);
  EXPECT_LT(large.width, 2600);
  EXPECT_LT(large.height, 1300);
}

TEST(HeatmapLayout, cell_size_never_grows_with_more_units) {
  for (int n = 1; n < 2048; ++n) EXPECT_LE(cell_size(n + 1), cell_size(n)) << n;
}

// The CPU backend's tiny maps: titles wider than the panels they sit on.
class SmallLayout : public ::testing::TestWithParam<int> {
 protected:
  static LayoutInput tiny_input(int units) {
    LayoutInput in = typical_input(units, 2, false);
    in.text.title_width = 420;         // "AMD EPYC - one-way CAS ping-pong latency, 2 cpus"
    in.text.panel_title_width = 190;   // "same-line (median 223 ns)"
    in.text.row_label_width = 7;
    in.text.column_label_width = 7;
    return in;
  }
};

TEST_P(SmallLayout, panel_titles_clear_each_other_and_the_colorbar) {
  const HeatmapLayout l = layout_heatmap(tiny_input(GetParam()));
  ASSERT_EQ(l.panel_titles.size(), 2u);
  EXPECT_FALSE(overlap(l.panel_titles[0], l.panel_titles[1]));
  EXPECT_GE(l.panel_titles[1].x - l.panel_titles[0].right(), 8) << "titles too close to read apart";
  for (const Rect& title : l.panel_titles) {
    EXPECT_GE(title.width, 190);
    EXPECT_TRUE(inside(title, l));
    // Nothing to the right of a title shares its columns: not even the colorbar's.
    for (const Rect& bar : {l.colorbar, l.colorbar_labels, l.value_label}) {
      EXPECT_FALSE(overlap(title, bar));
      EXPECT_LT(title.right(), bar.x);
    }
  }
  // Each title is centred on its own panel, within a pixel.
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_NEAR(l.panel_titles[i].x + l.panel_titles[i].width / 2.0, l.panels[i].x + l.panels[i].width / 2.0, 1.0);
  // Labels still hug the panel they label.
  EXPECT_EQ(l.row_labels[0].right() + kTickLength + 2, l.panels[0].x);
}

TEST_P(SmallLayout, main_title_fits_with_a_margin) {
  const HeatmapLayout l = layout_heatmap(tiny_input(GetParam()));
  EXPECT_GE(l.title.x, 16);
  EXPECT_LE(l.title.right(), l.width - 16);
  EXPECT_LE(l.title.bottom(), l.panel_titles[0].y);
}

TEST_P(SmallLayout, cells_are_large_enough_for_values) {
  const HeatmapLayout l = layout_heatmap(tiny_input(GetParam()));
  EXPECT_GE(l.cell_width, kMinCellForValues);
  EXPECT_EQ(l.cell_height, l.cell_width);
  EXPECT_GE(l.cell_value_px, 10);
  EXPECT_LE(l.cell_value_px, l.cell_width / 3);
  EXPECT_GE(l.panels[0].height, 160) << "a tiny map should not be dwarfed by its colorbar";
}

INSTANTIATE_TEST_SUITE_P(units, SmallLayout, ::testing::Values(2, 4, 8));

TEST(HeatmapLayout, small_cells_show_no_values) {
  EXPECT_EQ(layout_heatmap(typical_input(12, 1, false)).cell_value_px, 0);
  EXPECT_EQ(layout_heatmap(typical_input(132, 2, true)).cell_value_px, 0);
}

TEST(HeatmapLayout, content_is_centred_under_a_wider_title) {
  LayoutInput in = typical_input(2, 1, false);
  in.text.title_width = 900;
  const HeatmapLayout l = layout_heatmap(in);
  const int left_gap = l.row_labels[0].x;
  const int right_gap = l.width - l.value_label.right();
  EXPECT_NEAR(left_gap, right_gap, 1);
  EXPECT_GT(left_gap, 100);
}

}  // namespace
}  // namespace cumap::render
