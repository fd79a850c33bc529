#include <filesystem>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "cumap/render.hpp"
#include "report/render_file.hpp"
#include "png_reader.hpp"
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

class render_CsvFile : public ::testing::Test {
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

TEST_F(render_CsvFile, good_csv_with_order_becomes_a_png) {
  RenderRequest r = request(kGoodCsv);
  r.order = dir_.file("order.json", kGoodOrder);
  r.scale = "100:350";
  r.title = "re-rendered";
  render_csv_file(r);
  const Image image = test::read_png(r.png);
  EXPECT_GT(image.width, 100);
  EXPECT_GT(image.height, 100);
}

TEST_F(render_CsvFile, missing_csv) {
  RenderRequest r = request(kGoodCsv);
  r.csv = dir_ / "does-not-exist.csv";
  expect_usage_error(r);
}

TEST_F(render_CsvFile, non_numeric_cell) {
  expect_usage_error(request("unit,0,1\n0,,fast\n1,12,\n"));
}

TEST_F(render_CsvFile, ragged_rows) {
  expect_usage_error(request("unit,0,1,2\n0,,1,2\n1,1,\n2,2,3,\n"));
}

TEST_F(render_CsvFile, non_square) {
  expect_usage_error(request("unit,0,1,2\n0,,1,2\n1,1,,3\n"));
}

TEST_F(render_CsvFile, order_naming_a_unit_not_in_the_matrix) {
  RenderRequest r = request(kGoodCsv);
  r.order = dir_.file("order.json", R"({"source": "file", "groups": [{"name": "g", "units": [0, 1, 9]}]})");
  expect_usage_error(r);
}

TEST_F(render_CsvFile, order_file_that_is_not_json) {
  RenderRequest r = request(kGoodCsv);
  r.order = dir_.file("order.json", "{not json");
  expect_usage_error(r);
}

TEST_F(render_CsvFile, bad_scales) {
  for (const char* scale : {"", "100", "500:100", "100:100", "a:b", "100:inf", "nan:5", "1:2:3", "auto "}) {
    RenderRequest r = request(kGoodCsv);
    r.scale = scale;
    SCOPED_TRACE(scale);
    expect_usage_error(r);
  }
}

TEST_F(render_CsvFile, unknown_colormap) {
  RenderRequest r = request(kGoodCsv);
  r.colormap = "jet";
  expect_usage_error(r);
}

}  // namespace
}  // namespace cumap
