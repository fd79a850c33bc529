// Which units and groups get labels: every unit up to 64, the groups
// beyond, and never a group without its name (an H100's four 2-SM GPCs).
// Tested on the label computation, not on pixels.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cumap/render.hpp"
#include "render/font.hpp"
#include "render/heatmap_parts.hpp"
#include "first_units.hpp"

namespace cumap {
namespace {

ValueMatrix map_of(const std::vector<int>& units) {
  ValueMatrix m = ValueMatrix::filled(units, 300.0);
  for (std::size_t i = 0; i < units.size(); ++i) m.at(i, i) = std::nan("");
  return m;
}

using test::first_units;

// An H100's display groups (side, then GPC) as a run makes them, over
// units numbered in display order: GPC8..GPC11 have 2 SMs each.
Topology h100_display_groups() {
  const std::vector<std::pair<std::string, int>> sizes{
      {"S0 GPC0", 8},  {"S0 GPC4", 16}, {"S0 GPC5", 16}, {"S0 GPC6", 18}, {"S0 GPC8", 2},  {"S0 GPC9", 2},
      {"S0 GPC10", 2}, {"S0 GPC11", 2}, {"S1 GPC1", 16}, {"S1 GPC2", 16}, {"S1 GPC3", 16}, {"S1 GPC7", 18}};
  Topology t;
  int unit = 0;
  for (const auto& [name, size] : sizes) {
    UnitGroup g{name, {}};
    for (int i = 0; i < size; ++i) g.units.push_back(unit++);
    t.groups.push_back(g);
  }
  return t;
}

bool overlaps(const render::GroupLabel& a, const render::GroupLabel& b) {
  return a.lane == b.lane && a.offset < b.offset + b.width && b.offset < a.offset + a.width;
}

class AxisLabels : public ::testing::Test {
 protected:
  render::HeatmapLayout plan(int units, std::optional<Topology> groups) {
    HeatmapStyle style;
    style.groups = std::move(groups);
    style.row_title = "SM a";
    style.column_title = "SM b";
    return render::plan_heatmap(font_, {HeatmapPanel{"", map_of(first_units(units))}}, style);
  }
  render::Font font_{render::default_font_path()};
};

TEST_F(AxisLabels, a_32_unit_map_labels_every_unit) {
  Topology two_groups;
  two_groups.groups = {{"S0 GPC0", first_units(16)}, {"S1 GPC1", {}}};
  for (int u = 16; u < 32; ++u) two_groups.groups[1].units.push_back(u);
  for (const auto& groups : {std::optional<Topology>{}, std::optional<Topology>{two_groups}}) {
    const render::HeatmapLayout l = plan(32, groups);
    EXPECT_EQ(l.row_label_step, 1);
    EXPECT_EQ(l.column_label_step, 1);
    EXPECT_GT(l.row_labels[0].width, 0);
    EXPECT_GT(l.column_labels[0].height, 0);
  }
}

TEST_F(AxisLabels, a_64_unit_map_still_labels_every_unit_without_them_touching) {
  const render::HeatmapLayout l = plan(64, std::nullopt);
  EXPECT_EQ(l.row_label_step, 1);
  EXPECT_EQ(l.column_label_step, 1);
  const int digits = font_.measure("0123456789", render::kUnitLabelPx).height();
  EXPECT_GE(l.cell_height, digits + 2) << "neighbouring labels would touch";
}

TEST_F(AxisLabels, a_132_unit_map_names_every_group_including_the_2_unit_ones) {
  const Topology groups = h100_display_groups();
  const render::HeatmapLayout l = plan(132, groups);
  EXPECT_EQ(l.row_label_step, 0);
  EXPECT_EQ(l.column_label_step, 0);
  for (const auto* labels : {&l.column_group_labels[0], &l.row_group_labels[0]}) {
    ASSERT_EQ(labels->size(), groups.groups.size());
    int begin = 0;
    for (std::size_t g = 0; g < groups.groups.size(); ++g) {
      const render::GroupLabel& label = (*labels)[g];
      const int size = static_cast<int>(groups.groups[g].units.size());
      // The name as the topology gives it, side first ("S0 GPC10"), not "10" or "GPC10".
      EXPECT_EQ(label.text, groups.groups[g].name);
      // Over its own group: the label's extent holds the group's centre.
      const int center = (2 * begin + size) * l.cell_width / 2;
      EXPECT_LE(label.offset, center) << label.text;
      EXPECT_GE(label.offset + label.width, center) << label.text;
      EXPECT_GE(label.offset, 0);
      EXPECT_LE(label.offset + label.width, 132 * l.cell_width);
      begin += size;
    }
    for (std::size_t a = 0; a < labels->size(); ++a)
      for (std::size_t b = a + 1; b < labels->size(); ++b)
        EXPECT_FALSE(overlaps((*labels)[a], (*labels)[b])) << (*labels)[a].text << " / " << (*labels)[b].text;
  }
  // The staggered names have their room: the band holds every lane.
  EXPECT_EQ(l.column_groups[0].height, render::lane_count(l.column_group_labels[0]) * l.group_lane_pitch);
  EXPECT_EQ(l.row_groups[0].width, render::lane_count(l.row_group_labels[0]) * l.group_lane_pitch);
}

// Names wider than the lanes can stagger take shorter forms, and when even
// those collide, a lane of their own: no group goes unnamed.
TEST(GroupLabels, CrowdedNamesShortenThenTakeMoreLanesButAreNeverDropped) {
  std::vector<AxisGroup> groups;
  for (int g = 0; g < 12; ++g) groups.push_back({g, g + 1, "S0 GPC" + std::to_string(g)});
  const auto width_of = [](const std::string& text) { return 10 * static_cast<int>(text.size()); };
  const std::vector<render::GroupLabel> labels = render::place_group_labels(groups, 4, width_of);
  ASSERT_EQ(labels.size(), groups.size());
  for (std::size_t a = 0; a < labels.size(); ++a) {
    EXPECT_FALSE(labels[a].text.empty());
    for (std::size_t b = a + 1; b < labels.size(); ++b) EXPECT_FALSE(overlaps(labels[a], labels[b]));
  }
  // Roomy groups keep their whole names in one lane.
  std::vector<AxisGroup> roomy{{0, 10, "S0 GPC0"}, {10, 20, "S1 GPC1"}, {20, 22, ""}};
  const std::vector<render::GroupLabel> two = render::place_group_labels(roomy, 10, width_of);
  ASSERT_EQ(two.size(), 2u);  // the unnamed run gets none
  EXPECT_EQ(two[0].text, "S0 GPC0");
  EXPECT_EQ(two[1].text, "S1 GPC1");
  EXPECT_EQ(render::lane_count(two), 1);
}

}  // namespace
}  // namespace cumap
