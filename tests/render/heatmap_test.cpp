#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "render/render.hpp"
#include "report/render_file.hpp"
#include "png_reader.hpp"
#include "render/color_scale.hpp"
#include "render/colormap_tables.hpp"
#include "render/font.hpp"
#include "render/heatmap_parts.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

constexpr double kLo = 100.0;
constexpr double kHi = 500.0;

std::vector<int> unit_ids(int n) {
  std::vector<int> units(n);
  for (int i = 0; i < n; ++i) units[i] = i;
  return units;
}

// Random values in [kLo, kHi], NaN on the diagonal as cumap produces them.
ValueMatrix random_matrix(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(kLo, kHi);
  ValueMatrix m = ValueMatrix::filled(unit_ids(n), 0.0);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) m.at(r, c) = r == c ? std::nan("") : value(rng);
  return m;
}

Topology four_groups(int n) {
  Topology topo;
  topo.source = "file";
  for (int g = 0; g < 4; ++g) {
    UnitGroup group{"GPC" + std::to_string(g), {}};
    for (int u = g * n / 4; u < (g + 1) * n / 4; ++u) group.units.push_back(u);
    topo.groups.push_back(group);
  }
  return topo;
}

struct Drawn {
  render::HeatmapLayout layout;
  Image image;  // decoded from the written PNG
};

Drawn draw(const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style, const test::TempDir& dir) {
  render::Font font(render::default_font_path());
  Drawn drawn{render::plan_heatmap(font, panels, style), {}};
  write_png(dir / "map.png", render_heatmap(panels, style));
  drawn.image = test::read_png(dir / "map.png");
  return drawn;
}

Rgb cell_center(const Drawn& d, std::size_t panel, int r, int c) {
  const render::Rect& p = d.layout.panels[panel];
  return d.image.pixel(p.x + c * d.layout.cell_width + d.layout.cell_width / 2,
                       p.y + r * d.layout.cell_height + d.layout.cell_height / 2);
}

int non_white_pixels(const Image& image, const render::Rect& r) {
  int count = 0;
  for (int y = r.y; y < r.bottom(); ++y)
    for (int x = r.x; x < r.right(); ++x)
      if (image.pixel(x, y) != Rgb{255, 255, 255}) ++count;
  return count;
}

class Heatmap : public ::testing::Test {
 protected:
  void SetUp() override {
    ValueMatrix second = random_matrix(kUnits, 2);
    second.at(5, 9) = std::nan("");  // a timed-out pair
    panels_ = {HeatmapPanel{"same-line", random_matrix(kUnits, 1)}, HeatmapPanel{"separate-lines", second}};
    style_.title = "Test GPU - same-line vs separate-lines";
    style_.scale = std::pair{kLo, kHi};
    style_.groups = four_groups(kUnits);
  }
  static constexpr int kUnits = 132;
  std::vector<HeatmapPanel> panels_;
  HeatmapStyle style_;
  test::TempDir dir_;
};

TEST_F(Heatmap, png_has_the_layouts_size) {
  const Drawn d = draw(panels_, style_, dir_);
  EXPECT_EQ(d.image.width, d.layout.width);
  EXPECT_EQ(d.image.height, d.layout.height);
  EXPECT_EQ(d.layout.cell_width, 6);
  EXPECT_EQ(d.layout.cell_height, 6);
  EXPECT_EQ(d.layout.panels.size(), 2u);
}

TEST_F(Heatmap, cells_have_exactly_their_colormap_color) {
  style_.colormap = "magma";
  panels_[0].matrix.at(3, 7) = 300.0;   // the middle of the fixed scale
  panels_[1].matrix.at(20, 2) = 900.0;  // above the scale: clamped to the top
  const Drawn d = draw(panels_, style_, dir_);
  EXPECT_EQ(cell_center(d, 0, 3, 7), colormap("magma", 0.5));
  EXPECT_EQ(cell_center(d, 1, 20, 2), colormap("magma", 1.0));
  for (int r : {0, 50, 131})
    for (int c : {1, 77, 130}) {
      if (r == c) continue;
      const double v = panels_[0].matrix.at(r, c);
      EXPECT_EQ(cell_center(d, 0, r, c), colormap("magma", (v - kLo) / (kHi - kLo))) << r << "," << c;
    }
}

TEST_F(Heatmap, diagonal_and_missing_cells_are_gray) {
  const Drawn d = draw(panels_, style_, dir_);
  for (int i : {0, 33, 131}) {
    EXPECT_EQ(cell_center(d, 0, i, i), kMissingGray);
    EXPECT_EQ(cell_center(d, 1, i, i), kMissingGray);
  }
  EXPECT_EQ(cell_center(d, 1, 5, 9), kMissingGray);
  EXPECT_NE(cell_center(d, 0, 5, 9), kMissingGray);
}

// A timed-out cell (+infinity) has its own dark gray, apart from the
// diagonal's and a missing cell's gray and from every colour of the map;
// the legend names it.
TEST_F(Heatmap, timed_out_cells_have_their_own_colour) {
  panels_[0].matrix.at(5, 9) = INFINITY;
  panels_[0].matrix.at(9, 5) = std::nan("");
  const Drawn d = draw(panels_, style_, dir_);
  EXPECT_EQ(cell_center(d, 0, 5, 9), kTimedOutGray);
  EXPECT_EQ(cell_center(d, 0, 9, 5), kMissingGray);
  EXPECT_EQ(cell_center(d, 0, 7, 7), kMissingGray);
  EXPECT_NE(kTimedOutGray, kMissingGray);
  for (int i = 0; i <= 255; ++i) EXPECT_NE(colormap(style_.colormap, i / 255.0), kTimedOutGray);
  // The scale is the finite cells': an infinite one does not stretch it.
  const render::ColorScale scale = render::choose_color_scale(panels_, std::nullopt);
  EXPECT_TRUE(std::isfinite(scale.max));
  EXPECT_LE(scale.max, kHi);
}

TEST(HeatmapLegend, says_what_each_gray_is) {
  ValueMatrix m = ValueMatrix::filled({0, 1, 2}, 200.0);
  for (int i = 0; i < 3; ++i) m.at(i, i) = std::nan("");
  render::Grid grid;
  grid.rows.labels = grid.columns.labels = {"0", "1", "2"};
  grid.values = m.values;
  grid.gray_diagonal = true;
  EXPECT_EQ(render::gray_legend({grid}), "gray: a unit with itself (the diagonal)");
  m.at(0, 1) = INFINITY;
  EXPECT_EQ(render::gray_legend({grid}), "gray: a unit with itself (the diagonal); dark gray: timed out");
  m.at(1, 0) = std::nan("");
  EXPECT_EQ(render::gray_legend({grid}),
            "gray: a unit with itself (the diagonal), or no value (not measured or timed out); dark gray: timed out");
}

TEST_F(Heatmap, colorbar_runs_through_the_colormap_in_order) {
  const Drawn d = draw(panels_, style_, dir_);
  const render::Rect& bar = d.layout.colorbar;
  const auto& table = render::kViridis;
  int previous = static_cast<int>(table.size());
  int steps = 0;
  for (int y = bar.y; y < bar.bottom(); ++y) {
    const Rgb color = d.image.pixel(bar.x + bar.width / 2, y);
    const auto it = std::find(table.begin(), table.end(), color);
    ASSERT_NE(it, table.end()) << "colorbar pixel at y=" << y << " is not a viridis color";
    const int index = static_cast<int>(it - table.begin());
    EXPECT_LE(index, previous) << "colorbar goes backwards at y=" << y;
    if (index < previous) ++steps;
    previous = index;
  }
  EXPECT_EQ(previous, 0);  // ends at the low end
  EXPECT_GT(steps, 200);   // and passes through most of the map
}

TEST_F(Heatmap, separators_mark_group_boundaries) {
  const Drawn d = draw(panels_, style_, dir_);
  const render::Rect& p = d.layout.panels[0];
  const int boundary = p.x + (kUnits / 4) * d.layout.cell_width;  // first cell of GPC1
  EXPECT_EQ(d.image.pixel(boundary, p.y + 10 * d.layout.cell_height + 2), render::kSeparator);
  EXPECT_NE(d.image.pixel(boundary + 2, p.y + 10 * d.layout.cell_height + 2), render::kSeparator);
}

TEST_F(Heatmap, text_regions_hold_ink) {
  style_.row_title = "SM a (by group)";
  style_.column_title = "SM b (by group)";
  const Drawn d = draw(panels_, style_, dir_);
  const auto& l = d.layout;
  EXPECT_GT(non_white_pixels(d.image, l.title), 50);
  EXPECT_GT(non_white_pixels(d.image, l.panel_titles[0]), 30);
  EXPECT_GT(non_white_pixels(d.image, l.panel_titles[1]), 30);
  EXPECT_GT(non_white_pixels(d.image, l.row_groups[0]), 20);
  EXPECT_GT(non_white_pixels(d.image, l.column_groups[0]), 20);
  EXPECT_GT(non_white_pixels(d.image, l.column_groups[1]), 20);
  EXPECT_GT(non_white_pixels(d.image, l.row_titles[0]), 30);
  EXPECT_GT(non_white_pixels(d.image, l.column_titles[0]), 30);
  EXPECT_GT(non_white_pixels(d.image, l.column_titles[1]), 30);
  EXPECT_GT(non_white_pixels(d.image, l.colorbar_labels), 30);
  EXPECT_GT(non_white_pixels(d.image, l.value_label), 30);
  EXPECT_GT(non_white_pixels(d.image, l.legend), 30);
  // Text is anti-aliased: some of the ink is neither white nor full ink.
  int partial = 0;
  for (int y = l.row_groups[0].y; y < l.row_groups[0].bottom(); ++y)
    for (int x = l.row_groups[0].x; x < l.row_groups[0].right(); ++x) {
      const Rgb c = d.image.pixel(x, y);
      if (c.r > 60 && c.r < 230) ++partial;
    }
  EXPECT_GT(partial, 20);
}

// 132 units with groups: the group names label the axes, not every few ids.
TEST_F(Heatmap, long_axes_with_groups_show_group_names_not_ids) {
  const Drawn d = draw(panels_, style_, dir_);
  EXPECT_EQ(d.layout.row_label_step, 0);
  EXPECT_EQ(d.layout.column_labels[0].height, 0);
  EXPECT_EQ(d.layout.row_labels[0].width, 0);
}

TEST_F(Heatmap, the_gray_legend_says_what_gray_means) {
  // Panel 1 has a missing pair (5, 9): gray there is more than the diagonal.
  render::Font font(render::default_font_path());
  EXPECT_EQ(render::gray_legend(render::map_grids(panels_, style_)),
            "gray: a unit with itself (the diagonal), or no value (not measured or timed out)");
  const std::vector<HeatmapPanel> complete{panels_[0]};
  EXPECT_EQ(render::gray_legend(render::map_grids(complete, style_)), "gray: a unit with itself (the diagonal)");
  // The legend's swatch is the gray of the cells.
  const Drawn d = draw(panels_, style_, dir_);
  const render::Rect& legend = d.layout.legend;
  EXPECT_EQ(d.image.pixel(legend.x + legend.height / 2, legend.y + legend.height / 2), kMissingGray);
}

TEST_F(Heatmap, without_groups_there_are_no_separators_or_group_names) {
  style_.groups.reset();
  const Drawn d = draw(panels_, style_, dir_);
  EXPECT_EQ(d.layout.column_groups[0].height, 0);
  const render::Rect& p = d.layout.panels[0];
  for (int x = p.x; x < p.right(); ++x)
    EXPECT_NE(d.image.pixel(x, p.y + 10 * d.layout.cell_height + 2), render::kSeparator);
}

TEST_F(Heatmap, thousand_units_fit_one_pixel_a_cell) {
  const std::vector<HeatmapPanel> big{HeatmapPanel{"1024", random_matrix(1024, 3)}};
  const Drawn d = draw(big, style_, dir_);
  EXPECT_EQ(d.layout.cell_width, 1);
  EXPECT_EQ(d.image.width, d.layout.width);
  EXPECT_EQ(cell_center(d, 0, 1000, 1000), kMissingGray);
}

TEST_F(Heatmap, bad_panels_and_colormaps_are_usage_errors) {
  EXPECT_THROW(render_heatmap({}, style_), UsageError);
  std::vector<HeatmapPanel> uneven = panels_;
  uneven[1].matrix = random_matrix(10, 4);
  EXPECT_THROW(render_heatmap(uneven, style_), UsageError);
  style_.colormap = "rainbow";
  EXPECT_THROW(render_heatmap(panels_, style_), UsageError);
}

// Sets CUMAP_FONT for one test and clears it again even if the test fails.
struct FontOverride {
  explicit FontOverride(const char* path) { ::setenv("CUMAP_FONT", path, 1); }
  ~FontOverride() { ::unsetenv("CUMAP_FONT"); }
};

TEST_F(Heatmap, missing_font_is_a_usage_error_naming_the_package) {
  const FontOverride font("/nonexistent/cumap/DejaVuSans.ttf");
  try {
    render_heatmap(panels_, style_);
    ADD_FAILURE() << "no UsageError for a missing font";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("fonts-dejavu-core"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("/nonexistent/cumap/DejaVuSans.ttf"), std::string::npos) << e.what();
  }
}

// A title of a megabyte (a device's name, a title in a meta.json given to
// `cumap render --order`) made a picture of gigabytes: text is cut at 400
// characters, so the picture stays the size of a long title.
TEST_F(Heatmap, a_huge_title_is_cut_so_the_picture_stays_small) {
  style_.title = std::string(1 << 20, 'W');
  const Image huge = render_heatmap(panels_, style_);
  style_.title = std::string(399, 'W') + "\u2026";  // what is drawn of it
  const Image longest = render_heatmap(panels_, style_);
  EXPECT_EQ(huge.width, longest.width);
  EXPECT_LT(huge.width, 10000);
}

// A font that exists but cannot be used was reported as "not found"; and it
// was found only when the pictures were drawn, after the whole measurement.
// check_heatmap_font (which maps call before measuring) says why.
TEST(Font, UnusableFontsSayWhyBeforeAnythingIsDrawn) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("cumap_font_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "notes.txt") << "not a font\n";
  std::ofstream(dir / "locked.ttf") << "x";
  std::filesystem::permissions(dir / "locked.ttf", std::filesystem::perms::none);
  struct Case {
    std::filesystem::path path;
    std::string says;
  };
  // A named pipe blocked the run forever, /dev/zero was read until memory ran out.
  ASSERT_EQ(::mkfifo((dir / "pipe.ttf").c_str(), 0600), 0);
  std::vector<Case> cases{{dir / "missing.ttf", "not found"}, {dir / "notes.txt", "not a font FreeType can read"},
                          {dir, "is a directory"},
                          {dir / "pipe.ttf", "named pipe"},
                          {"/dev/zero", "character device"}};
  if (::geteuid() != 0) cases.push_back({dir / "locked.ttf", "Permission denied"});  // root reads anything
  for (const Case& c : cases) {
    SCOPED_TRACE(c.path.string());
    const FontOverride font(c.path.c_str());
    try {
      check_heatmap_font();
      ADD_FAILURE() << "no UsageError";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(c.says), std::string::npos) << what;
      EXPECT_NE(what.find(c.path.string()), std::string::npos) << what;
    }
  }
  EXPECT_NO_THROW(check_heatmap_font()) << "the default font";
  std::filesystem::remove_all(dir);
}

// A group's label is its own name (the side and GPU are bands), shortened
// by the stem every name shares, never cut inside a word or a number: "S0
// GPC0" once showed as "0 GPC0" (the "S" every name starts with was taken
// for a shared prefix), and GPC10 and GPC11 alone must not read "0" and "1".
TEST(GroupNames, ShorterFormsDropWholeWordsThenTheSharedStem) {
  const std::vector<AxisGroup> sided{{0, 8, "S0 GPC0"}, {8, 24, "S0 GPC2"}, {24, 40, "S1 GPC1"}};
  EXPECT_EQ(render::group_name_forms(sided, "S0 GPC0"), (std::vector<std::string>{"GPC0", "0"}));
  const std::vector<AxisGroup> across{{0, 8, "g1 S0 GPC10"}, {8, 16, "g1 S0 GPC11"}};
  EXPECT_EQ(render::group_name_forms(across, "g1 S0 GPC10"), (std::vector<std::string>{"GPC10", "10"}));
  const std::vector<AxisGroup> plain{{0, 8, "GPC0"}, {8, 16, "GPC1"}, {16, 20, ""}};
  EXPECT_EQ(render::group_name_forms(plain, "GPC1"), (std::vector<std::string>{"GPC1", "1"}));
  // No stem to drop when it is a whole name.
  const std::vector<AxisGroup> stem_is_a_name{{0, 8, "GPC"}, {8, 16, "GPC1"}};
  EXPECT_EQ(render::group_name_forms(stem_is_a_name, "GPC1"), (std::vector<std::string>{"GPC1"}));
}

}  // namespace
}  // namespace cumap
