#include <filesystem>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "cumap/render.hpp"
#include "png_reader.hpp"
#include "render/font.hpp"
#include "render/heatmap_parts.hpp"
#include "report/matrix_csv.hpp"
#include "report/render_file.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

// A 4-unit matrix CSV as cumap writes it: empty cells on the diagonal.
constexpr const char* kGoodCsv =
    "unit,0,1,2,3\n"
    "0,,110.5,300,320\n"
    "1,111,,305,330\n"
    "2,290,310,,120\n"
    "3,315,325,118,\n";

constexpr const char* kGoodOrder =
    R"({"source": "file", "groups": [{"name": "die1", "units": [2, 3]}, {"name": "die0", "units": [0, 1]}]})";

class RenderCsvFile : public ::testing::Test {
 protected:
  RenderRequest request(const std::string& csv) {
    RenderRequest r;
    r.csv = dir_.file("map.csv", csv);
    r.png = dir_ / "map.png";
    return r;
  }
  // The request must fail as bad input and leave no PNG behind.
  void expect_usage_error(const RenderRequest& r) {
    EXPECT_THROW(render_csv_file(r), UsageError);
    EXPECT_FALSE(std::filesystem::exists(r.png));
  }
  test::TempDir dir_;
};

TEST_F(RenderCsvFile, good_csv_with_order_becomes_a_png) {
  RenderRequest r = request(kGoodCsv);
  r.order = dir_.file("order.json", kGoodOrder);
  r.scale = "100:350";
  r.title = "re-rendered";
  render_csv_file(r);
  const Image image = test::read_png(r.png);
  EXPECT_GT(image.width, 100);
  EXPECT_GT(image.height, 100);
}

TEST_F(RenderCsvFile, missing_csv) {
  RenderRequest r = request(kGoodCsv);
  r.csv = dir_ / "does-not-exist.csv";
  expect_usage_error(r);
}

TEST_F(RenderCsvFile, non_numeric_cell) {
  expect_usage_error(request("unit,0,1\n0,,fast\n1,12,\n"));
}

TEST_F(RenderCsvFile, ragged_rows) {
  expect_usage_error(request("unit,0,1,2\n0,,1,2\n1,1,\n2,2,3,\n"));
}

TEST_F(RenderCsvFile, non_square) {
  expect_usage_error(request("unit,0,1,2\n0,,1,2\n1,1,,3\n"));
}

TEST_F(RenderCsvFile, order_naming_a_unit_not_in_the_matrix) {
  RenderRequest r = request(kGoodCsv);
  r.order = dir_.file("order.json", R"({"source": "file", "groups": [{"name": "g", "units": [0, 1, 9]}]})");
  expect_usage_error(r);
}

TEST_F(RenderCsvFile, order_file_that_is_not_json) {
  RenderRequest r = request(kGoodCsv);
  r.order = dir_.file("order.json", "{not json");
  expect_usage_error(r);
}

TEST_F(RenderCsvFile, bad_scales) {
  for (const char* scale : {"", "100", "500:100", "100:100", "a:b", "100:inf", "nan:5", "1:2:3", "auto "}) {
    RenderRequest r = request(kGoodCsv);
    r.scale = scale;
    SCOPED_TRACE(scale);
    expect_usage_error(r);
  }
}

TEST_F(RenderCsvFile, unknown_colormap) {
  RenderRequest r = request(kGoodCsv);
  r.colormap = "jet";
  expect_usage_error(r);
}

// Values at the edges of double (huge, denormal) through `cumap render`: the
// colours of the two off-diagonal cells of a 2x2 map read from CSV, drawn
// and written as `cumap render` does, then decoded from the PNG.
struct CellColours {
  Rgb upper;  // row 0, column 1
  Rgb lower;  // row 1, column 0
};

class RenderExtremeFile : public ::testing::Test {
 protected:
  CellColours render(const std::string& csv, const std::string& scale = "auto") {
    RenderRequest r;
    r.csv = dir_.file("m.csv", csv);
    r.png = dir_ / "m.png";
    r.scale = scale;
    r.title = "t";
    render_csv_file(r);
    const Image image = test::read_png(r.png);

    HeatmapStyle style;
    style.title = r.title;
    style.scale = parse_scale_spec(scale);
    render::Font font(render::default_font_path());
    const render::HeatmapLayout layout =
        render::plan_heatmap(font, {HeatmapPanel{"", read_matrix_csv(r.csv)}}, style);
    const render::Rect& panel = layout.panels.at(0);
    // Near the cell's corner: its centre may carry the value as text.
    const auto background = [&](int row, int column) {
      return image.pixel(panel.x + column * layout.cell_width + 2, panel.y + row * layout.cell_height + 2);
    };
    return {background(0, 1), background(1, 0)};
  }
  test::TempDir dir_;
};

TEST_F(RenderExtremeFile, HugeCellsGetBothEndColours) {
  const CellColours cells = render("unit,0,1\n0,,-1e308\n1,1e308,\n");
  EXPECT_EQ(cells.upper, colormap("viridis", 0.0));
  EXPECT_EQ(cells.lower, colormap("viridis", 1.0));
}

TEST_F(RenderExtremeFile, HugeScaleCentresOrdinaryCells) {
  const CellColours cells = render("unit,0,1\n0,,100\n1,200,\n", "-1e308:1e308");
  EXPECT_EQ(cells.upper, colormap("viridis", 0.5));
  EXPECT_EQ(cells.lower, colormap("viridis", 0.5));
}

TEST_F(RenderExtremeFile, DenormalRangeIsDrawnFlat) {
  const CellColours cells = render("unit,0,1\n0,,0\n1,4.9406564584124654e-324,\n");
  EXPECT_EQ(cells.upper, colormap("viridis", 0.5));
  EXPECT_EQ(cells.lower, colormap("viridis", 0.5));
}

}  // namespace
}  // namespace cumap
