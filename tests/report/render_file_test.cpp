#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "render/render.hpp"
#include "report/heatmap_png.hpp"
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

class CsvFile : public ::testing::Test {
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

TEST_F(CsvFile, good_csv_with_order_becomes_a_png) {
  RenderRequest r = request(kGoodCsv);
  r.order = dir_.file("order.json", kGoodOrder);
  r.scale = "100:350";
  r.title = "re-rendered";
  render_csv_file(r);
  const Image image = test::read_png(r.png);
  EXPECT_GT(image.width, 100);
  EXPECT_GT(image.height, 100);
}

TEST_F(CsvFile, missing_csv) {
  RenderRequest r = request(kGoodCsv);
  r.csv = dir_ / "does-not-exist.csv";
  expect_usage_error(r);
}

TEST_F(CsvFile, non_numeric_cell) {
  expect_usage_error(request("unit,0,1\n0,,fast\n1,12,\n"));
}

TEST_F(CsvFile, ragged_rows) {
  expect_usage_error(request("unit,0,1,2\n0,,1,2\n1,1,\n2,2,3,\n"));
}

TEST_F(CsvFile, non_square) {
  expect_usage_error(request("unit,0,1,2\n0,,1,2\n1,1,,3\n"));
}

TEST_F(CsvFile, order_naming_a_unit_not_in_the_matrix) {
  RenderRequest r = request(kGoodCsv);
  r.order = dir_.file("order.json", R"({"source": "file", "groups": [{"name": "g", "units": [0, 1, 9]}]})");
  expect_usage_error(r);
}

TEST_F(CsvFile, order_file_that_is_not_json) {
  RenderRequest r = request(kGoodCsv);
  r.order = dir_.file("order.json", "{not json");
  expect_usage_error(r);
}

TEST_F(CsvFile, bad_scales) {
  for (const char* scale : {"", "100", "500:100", "100:100", "a:b", "100:inf", "nan:5", "1:2:3", "auto "}) {
    RenderRequest r = request(kGoodCsv);
    r.scale = scale;
    SCOPED_TRACE(scale);
    expect_usage_error(r);
  }
}

// The message of the UsageError `r` throws (empty if none), which must leave
// the output as it was (usage_message: no file there at all).
std::string usage_message_keeping(const RenderRequest& r) {
  try {
    render_csv_file(r);
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

// The message of the UsageError `r` throws (empty if none), which must leave no PNG.
std::string usage_message(const RenderRequest& r) {
  try {
    render_csv_file(r);
  } catch (const UsageError& e) {
    EXPECT_FALSE(std::filesystem::exists(r.png)) << r.png;
    return e.what();
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `render -o` naming its own input once overwrote the CSV with a PNG.
TEST_F(CsvFile, output_that_is_the_input_is_refused_and_the_csv_is_kept) {
  RenderRequest r = request(kGoodCsv);
  r.png = r.csv;  // map.csv: refused as not a PNG name before anything else
  EXPECT_NE(usage_message_keeping(r).find("PNG only"), std::string::npos);
  EXPECT_EQ(read_file(r.csv), kGoodCsv);
  // The same file by another path: a CSV saved as .png, named through a detour...
  const auto csv_as_png = dir_.file("map.png", kGoodCsv);
  std::filesystem::create_directories(dir_ / "sub");
  r.csv = csv_as_png;
  r.png = dir_ / "sub" / ".." / "map.png";
  EXPECT_THROW(render_csv_file(r), UsageError);
  EXPECT_EQ(read_file(csv_as_png), kGoodCsv);
  // ... or through a symbolic link.
  r = request(kGoodCsv);
  r.png = dir_ / "link.png";
  std::filesystem::create_symlink(r.csv, r.png);
  const std::string message = usage_message_keeping(r);
  EXPECT_NE(message.find("is the input matrix CSV"), std::string::npos) << message;
  EXPECT_EQ(read_file(r.csv), kGoodCsv);
}

// `-o x.jpg` once wrote PNG bytes into a .jpg.
TEST_F(CsvFile, output_not_named_png_is_refused) {
  for (const char* name : {"x.jpg", "x", "x.png.txt", "x.csv"}) {
    RenderRequest r = request(kGoodCsv);
    r.png = dir_ / name;
    const std::string message = usage_message(r);
    EXPECT_NE(message.find("PNG only"), std::string::npos) << name << ": " << message;
  }
  RenderRequest upper = request(kGoodCsv);
  upper.png = dir_ / "X.PNG";
  render_csv_file(upper);
  EXPECT_TRUE(std::filesystem::exists(upper.png));
}

// A directory or /dev/null is named as what it is, not as a missing file.
TEST_F(CsvFile, a_directory_or_a_device_is_named_as_such) {
  RenderRequest r = request(kGoodCsv);
  r.csv = dir_ / "";
  std::string message = usage_message(r);
  EXPECT_NE(message.find("is a directory"), std::string::npos) << message;
  EXPECT_EQ(message.find("no such file"), std::string::npos) << message;
  r.csv = "/dev/null";
  message = usage_message(r);
  EXPECT_NE(message.find("character device"), std::string::npos) << message;
  EXPECT_EQ(message.find("no such file"), std::string::npos) << message;
  r.csv = dir_ / "missing.csv";
  EXPECT_NE(usage_message(r).find("no such file"), std::string::npos);
}

// The colorbar says what the file holds.
TEST_F(CsvFile, a_line_spread_file_gets_its_own_colorbar_label) {
  RenderRequest r = request(kGoodCsv);
  r.csv = dir_.file("line-spread-same-line.csv", kGoodCsv);
  EXPECT_EQ(plan_render(r).style.value_label, "line spread (ns)");
  r.csv = dir_.file("matrix-same-line.csv", kGoodCsv);
  EXPECT_EQ(plan_render(r).style.value_label, "one-way latency (ns)");
  EXPECT_EQ(value_label_for("/runs/h100/line-spread-split-line.csv"), "line spread (ns)");
}

TEST_F(CsvFile, axis_titles_name_the_units) {
  RenderRequest r = request(kGoodCsv);
  const RenderPlan plain = plan_render(r);
  EXPECT_EQ(plain.style.row_title, "unit a");
  EXPECT_EQ(plain.style.column_title, "unit b");
  r.order = dir_.file("order.json", kGoodOrder);
  EXPECT_EQ(plan_render(r).style.row_title, "unit a (by group)");
  EXPECT_EQ(map_axis_titles("SM", true, "side, then group"),
            (std::pair<std::string, std::string>{"pinging SM a (by side, then group)",
                                                 "answering SM b (by side, then group)"}));
}

TEST_F(CsvFile, unknown_colormap) {
  RenderRequest r = request(kGoodCsv);
  r.colormap = "jet";
  expect_usage_error(r);
}

}  // namespace
}  // namespace cumap
