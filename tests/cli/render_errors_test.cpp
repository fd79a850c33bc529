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
