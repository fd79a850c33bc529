// Which units and groups get labels: every unit up to 64, the groups
// beyond, and never a group without its name (an H100's four 2-SM GPCs);
// sides and GPUs as bands beyond them, no label touching another.
// Tested on the label computation, not on pixels.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/render.hpp"
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

// A group's own labels (its name, nearest the axis) and the bands beyond
// them (sides, devices).
struct SplitLabels {
  std::vector<render::GroupLabel> own, bands;
};
SplitLabels split(const std::vector<render::GroupLabel>& labels) {
  SplitLabels s;
  for (const render::GroupLabel& l : labels) (l.band_width > 0 ? s.bands : s.own).push_back(l);
  return s;
}

// No two labels of a lane touch: each keeps a blank of at least `gap` px
// from the next, so neighbours never read as one name ("GPC10 11").
void expect_apart(const std::vector<render::GroupLabel>& labels, int gap, int axis) {
  for (std::size_t a = 0; a < labels.size(); ++a) {
    EXPECT_GE(labels[a].offset, 0) << labels[a].text;
    EXPECT_LE(labels[a].offset + labels[a].width, axis) << labels[a].text;
    for (std::size_t b = a + 1; b < labels.size(); ++b) {
      if (labels[a].lane != labels[b].lane) continue;
      const render::GroupLabel& left = labels[a].offset < labels[b].offset ? labels[a] : labels[b];
      const render::GroupLabel& right = labels[a].offset < labels[b].offset ? labels[b] : labels[a];
      EXPECT_GE(right.offset - (left.offset + left.width), gap) << left.text << " / " << right.text;
    }
  }
}

TEST_F(AxisLabels, a_132_unit_map_names_every_group_including_the_2_unit_ones) {
  const Topology groups = h100_display_groups();
  const render::HeatmapLayout l = plan(132, groups);
  // One map of 132 SMs: every SM's id beside the panel, the group names beyond.
  EXPECT_EQ(l.row_label_step, 1);
  EXPECT_EQ(l.column_label_step, 1);
  for (const auto* labels : {&l.column_group_labels[0], &l.row_group_labels[0]}) {
    const SplitLabels s = split(*labels);
    // Every group is named: by its own name, or, the four groups of 2 units
    // (too narrow for theirs, numbered in turn), by one name over the four.
    ASSERT_EQ(s.own.size(), groups.groups.size() - 3);
    int begin = 0;
    std::size_t g = 0;
    for (const render::GroupLabel& label : s.own) {
      const std::size_t run = label.text.find('-') == std::string::npos ? 1 : 4;
      ASSERT_LE(g + run, groups.groups.size()) << label.text;
      int size = 0;
      for (std::size_t i = g; i < g + run; ++i) size += static_cast<int>(groups.groups[i].units.size());
      // The group's own name ("GPC10" of "S0 GPC10"): the side is the band's.
      const std::string side = "S" + std::to_string(g < 8 ? 0 : 1) + " ";
      EXPECT_EQ(side + label.text, run == 1 ? groups.groups[g].name : side + "GPC8-11");
      // Over its own group (run): the label's extent holds its centre.
      const int center = (2 * begin + size) * l.cell_width / 2;
      EXPECT_LE(label.offset, center) << label.text;
      EXPECT_GE(label.offset + label.width, center) << label.text;
      begin += size;
      g += run;
    }
    EXPECT_EQ(g, groups.groups.size());
    // One band per side, beyond every group's name, spanning the side.
    ASSERT_EQ(s.bands.size(), 2u);
    EXPECT_EQ(s.bands[0].text, "side 0");
    EXPECT_EQ(s.bands[1].text, "side 1");
    EXPECT_EQ(s.bands[0].band_offset, 0);
    EXPECT_EQ(s.bands[0].band_width, 66 * l.cell_width);
    EXPECT_EQ(s.bands[1].band_offset + s.bands[1].band_width, 132 * l.cell_width);
    for (const render::GroupLabel& band : s.bands) {
      EXPECT_EQ(band.lane, render::lane_count(s.own));
      EXPECT_GE(band.offset, band.band_offset);
      EXPECT_LE(band.offset + band.width, band.band_offset + band.band_width);
    }
    expect_apart(*labels, 8, 132 * l.cell_width);
  }
  // The staggered names have their room: the band holds every lane.
  EXPECT_EQ(l.column_groups[0].height, render::lane_count(l.column_group_labels[0]) * l.group_lane_pitch);
  EXPECT_EQ(l.row_groups[0].width, render::lane_count(l.row_group_labels[0]) * l.group_lane_pitch);
}

// Two H100-like GPUs in one map (264 units, 3 px a unit): "g0 S0 GPC10" once
// stood beside "11" and read as one name. The GPUs and sides are bands
// now, the GPCs their own names or numbers, and no two labels of a lane
// come near each other.
TEST_F(AxisLabels, a_264_unit_map_across_gpus_draws_gpus_and_sides_as_bands_and_no_label_touches_another) {
  Topology two;
  for (int device : {0, 1})
    for (const UnitGroup& g : h100_display_groups().groups) {
      UnitGroup named{"g" + std::to_string(device) + " " + g.name, {}};
      for (int u : g.units) named.units.push_back(device * 132 + u);
      two.groups.push_back(std::move(named));
    }
  const render::HeatmapLayout l = plan(264, two);
  ASSERT_EQ(l.cell_width, 3);
  for (const auto* labels : {&l.column_group_labels[0], &l.row_group_labels[0]}) {
    const SplitLabels s = split(*labels);
    ASSERT_EQ(s.own.size(), two.groups.size() - 6) << "every GPC keeps a label, the 2-unit groups one a GPU";
    for (const render::GroupLabel& label : s.own) {
      EXPECT_EQ(label.text.find(' '), std::string::npos) << "no GPU or side in a GPC's label: " << label.text;
      EXPECT_NE(label.text.front(), 'g') << label.text;
    }
    std::vector<std::string> bands;
    for (const render::GroupLabel& band : s.bands) bands.push_back(band.text);
    EXPECT_EQ(bands, (std::vector<std::string>{"side 0", "side 1", "side 0", "side 1", "GPU 0", "GPU 1"}));
    const int lanes = render::lane_count(*labels);
    EXPECT_EQ(s.bands.back().lane, lanes - 1) << "the GPUs outermost";
    EXPECT_EQ(s.bands.front().lane, lanes - 2) << "then the sides";
    EXPECT_EQ(s.bands.back().band_offset, 132 * 3);
    EXPECT_EQ(s.bands.back().band_width, 132 * 3);
    expect_apart(*labels, 8, 264 * 3);
  }
  EXPECT_EQ(l.column_groups[0].height, render::lane_count(l.column_group_labels[0]) * l.group_lane_pitch);
}

// Neighbours too narrow for their names and numbered in turn under one stem
// (an H100's four groups of 2 SMs) are named once over the run; a run stops
// at a side's end, and a group wide enough for its name keeps it.
TEST(GroupLabels, ARunOfNarrowNumberedNeighboursIsNamedOnce) {
  const auto width_of = [](const std::string& text) { return 10 * static_cast<int>(text.size()); };
  const std::vector<AxisGroup> groups{{0, 10, "S0 GPC0"},  {10, 12, "S0 pair0"}, {12, 14, "S0 pair1"},
                                      {14, 16, "S0 pair2"}, {16, 18, "S1 pair3"}, {18, 28, "S1 GPC1"}};
  const SplitLabels labels = split(render::place_group_labels(groups, 4, width_of));
  std::vector<std::string> own;
  for (const render::GroupLabel& l : labels.own) own.push_back(l.text);
  EXPECT_EQ(own, (std::vector<std::string>{"GPC0", "pair0-2", "pair3", "GPC1"}));
  EXPECT_LE(labels.own[1].offset, 14 * 4) << "over the run's centre";
  EXPECT_GE(labels.own[1].offset + labels.own[1].width, 14 * 4);
}

// Names wider than the lanes can stagger take shorter forms, and when even
// those collide, a lane of their own: no group goes unnamed. A band too
// narrow for "side 0" says "S0".
TEST(GroupLabels, CrowdedNamesShortenThenTakeMoreLanesButAreNeverDropped) {
  std::vector<AxisGroup> groups;  // not numbered in turn: each keeps a name of its own
  for (int g = 0; g < 12; ++g) groups.push_back({g, g + 1, "S0 GPC" + std::to_string(2 * g)});
  const auto width_of = [](const std::string& text) { return 10 * static_cast<int>(text.size()); };
  const SplitLabels labels = split(render::place_group_labels(groups, 4, width_of));
  ASSERT_EQ(labels.own.size(), groups.size());
  for (std::size_t a = 0; a < labels.own.size(); ++a) {
    EXPECT_FALSE(labels.own[a].text.empty());
    for (std::size_t b = a + 1; b < labels.own.size(); ++b) EXPECT_FALSE(overlaps(labels.own[a], labels.own[b]));
  }
  ASSERT_EQ(labels.bands.size(), 1u);
  EXPECT_EQ(labels.bands[0].text, "S0");
  // Roomy groups keep their own names in one lane, their sides in the next.
  std::vector<AxisGroup> roomy{{0, 10, "S0 GPC0"}, {10, 20, "S1 GPC1"}, {20, 22, ""}};
  const std::vector<render::GroupLabel> two = render::place_group_labels(roomy, 10, width_of);
  ASSERT_EQ(two.size(), 4u);  // the unnamed run gets none
  EXPECT_EQ(two[0].text, "GPC0");
  EXPECT_EQ(two[1].text, "GPC1");
  EXPECT_EQ(two[2].text, "side 0");
  EXPECT_EQ(two[3].text, "side 1");
  EXPECT_EQ(render::lane_count(two), 2);
  // Without a topology every group is "other": the bands alone.
  const std::vector<render::GroupLabel> plain =
      render::place_group_labels({{0, 10, "S0 other"}, {10, 20, "S1 other"}}, 10, width_of);
  ASSERT_EQ(plain.size(), 2u);
  EXPECT_GT(plain[0].band_width, 0);
  EXPECT_EQ(plain[0].lane, 0);
}

}  // namespace
}  // namespace cumap
