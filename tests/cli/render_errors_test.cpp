// `cumap render` with bad input: exit 2, one line on stderr, no PNG.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "cli_harness.hpp"

namespace cumap::test {
namespace {

namespace fs = std::filesystem;

const std::string kGoodCsv = "unit,0,1\n0,,12.5\n1,12.5,\n";

struct BadRender {
  std::string name;
  std::string csv;                  // written to in.csv unless empty (then in.csv is missing)
  std::vector<std::string> extra;   // more arguments after "render in.csv -o x.png"
};
void PrintTo(const BadRender& c, std::ostream* os) { *os << c.name; }

class RenderErrors : public ::testing::TestWithParam<BadRender> {};

TEST_P(RenderErrors, ExitsTwoWithOneLineAndNoPng) {
  const BadRender& c = GetParam();
  TempDir cwd;
  if (!c.csv.empty()) write_text(cwd.path() / "in.csv", c.csv);
  // An order file naming unit 7, which no matrix here has.
  write_text(cwd.path() / "order.json", R"({"source": "file", "groups": [{"name": "g0", "units": [0, 7]}]})");
  const auto before = snapshot(cwd.path());

  std::vector<std::string> args{"render", "in.csv", "-o", "x.png"};
  args.insert(args.end(), c.extra.begin(), c.extra.end());
  const RunResult r = run_cumap(args, cwd.path());

  EXPECT_EQ(r.exit_code, 2) << r.err;
  const auto lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << "stderr:\n" << r.err;
  EXPECT_EQ(lines[0].rfind("cumap: error:", 0), 0u) << lines[0];
  EXPECT_FALSE(fs::exists(cwd.path() / "x.png"));
  EXPECT_EQ(snapshot(cwd.path()), before) << "a temporary or partial file was left behind";
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, RenderErrors,
    ::testing::Values(BadRender{"missing_csv", "", {}},
                      BadRender{"non_numeric_cell", "unit,0,1\n0,,abc\n1,12.5,\n", {}},
                      BadRender{"ragged_rows", "unit,0,1\n0,,12.5\n1,12.5\n", {}},
                      BadRender{"non_square", "unit,0,1,2\n0,,1,2\n1,1,,2\n", {}},
                      BadRender{"order_names_unknown_unit", kGoodCsv, {"--order", "order.json"}},
                      BadRender{"scale_min_above_max", kGoodCsv, {"--scale", "5:1"}},
                      BadRender{"colormap_unknown", kGoodCsv, {"--colormap", "nosuch"}}),
    [](const ::testing::TestParamInfo<BadRender>& info) { return info.param.name; });

// `-o` naming the input (by its own path or through a link) once replaced
// the CSV with a PNG; `-o x.jpg` wrote PNG bytes into a .jpg. Both are
// refused before anything is written.
TEST(Render, OutputThatIsTheInputOrNotAPngIsRefusedAndNothingChanges) {
  TempDir cwd;
  write_text(cwd.path() / "in.csv", kGoodCsv);
  fs::create_symlink("in.csv", cwd.path() / "link.png");
  const auto before = snapshot(cwd.path());
  expect_one_usage_line(run_cumap({"render", "in.csv", "-o", "in.csv"}, cwd.path()), "png only");
  expect_one_usage_line(run_cumap({"render", "in.csv", "-o", "link.png"}, cwd.path()), "is the input matrix csv");
  expect_one_usage_line(run_cumap({"render", "in.csv", "-o", "x.jpg"}, cwd.path()), "png only");
  EXPECT_FALSE(fs::exists(cwd.path() / "x.jpg"));
  EXPECT_EQ(read_text(cwd.path() / "in.csv"), kGoodCsv);
  EXPECT_EQ(snapshot(cwd.path()), before);
}

// A directory or /dev/null as the matrix is named as what it is.
TEST(Render, ADirectoryOrADeviceAsTheMatrixSaysWhatItIs) {
  TempDir cwd;
  fs::create_directories(cwd.path() / "run");
  expect_one_usage_line(run_cumap({"render", "run", "-o", "x.png"}, cwd.path()), "is a directory");
  expect_one_usage_line(run_cumap({"render", "/dev/null", "-o", "x.png"}, cwd.path()), "character device");
  EXPECT_FALSE(fs::exists(cwd.path() / "x.png"));
}

// A run's pictures drawn again from its CSVs with --order DIR (or its
// meta.json) are the run's own, byte for byte: here a CPU map.
TEST(Render, OrderDirRedrawsTheRunsHeatmapsExactly) {
  TempDir cwd;
  const RunResult run = run_cumap({"--backend", "cpu", "--out", "D", "--iters", "50", "--samples", "3", "--timeout-ms",
                                   "20000", "--colormap", "magma"},
                                  cwd.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(cwd.path() / "D")) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("matrix-")) continue;
    const std::string stem = name.substr(7, name.size() - 7 - 4);
    for (const std::string order : {"D", "D/meta.json"}) {
      SCOPED_TRACE(name + " --order " + order);
      const RunResult r = run_cumap({"render", "D/" + name, "-o", "again.png", "--order", order}, cwd.path());
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(read_text(cwd.path() / "again.png"), read_text(cwd.path() / "D" / ("heatmap-" + stem + ".png")));
      ++compared;
    }
  }
  EXPECT_GE(compared, 4);  // same-line and split-line at least
}

// The order of another chip's run draws one chip's cells under another's
// labels: refused in one line naming --force, which draws it anyway.
TEST(Render, AnOrderOfAnotherChipIsRefusedUnlessForced) {
  TempDir cwd;
  const fs::path plots = CUMAP_PLOTS_DIR;
  const std::string csv = (plots / "h200" / "matrix-same-line.csv").string();
  const RunResult r = run_cumap({"render", csv, "-o", "x.png", "--order", (plots / "h100").string()}, cwd.path());
  expect_one_usage_line(r, "--force");
  EXPECT_NE(r.err.find("NVIDIA H100"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(cwd.path() / "x.png"));
  const RunResult forced =
      run_cumap({"render", csv, "-o", "x.png", "--order", (plots / "h100").string(), "--force"}, cwd.path());
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_TRUE(has_png_signature(cwd.path() / "x.png"));
  // Its own run's order, and a topology JSON (which names no chip), as before.
  EXPECT_EQ(run_cumap({"render", csv, "-o", "y.png", "--order", (plots / "h200").string()}, cwd.path()).exit_code, 0);
}

// The same good CSV renders: the failures above are the input's fault.
TEST(Render, GoodCsvWritesAPng) {
  TempDir cwd;
  write_text(cwd.path() / "in.csv", kGoodCsv);
  const RunResult r = run_cumap({"render", "in.csv", "-o", "x.png", "--scale", "1:20"}, cwd.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has_png_signature(cwd.path() / "x.png"));
}

}  // namespace
}  // namespace cumap::test
