// `cumap compare A B` as a user runs it: the committed H200 run against
// itself (alike, exit 0) and against the committed H100 run (another chip:
// structure only, cells refused with the reason), a GPU run against a CPU
// run (one line, exit 2), two CPU runs of this machine (every matrix file by
// name), barrier runs, the files of -o and what it refuses to write.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace cumap::test {
namespace {

namespace fs = std::filesystem;
const fs::path kPlots = CUMAP_PLOTS_DIR;

std::vector<std::string> quick_cpu_map(const std::string& out) {
  return {"--backend", "cpu", "--out", out, "--iters", "20", "--samples", "2", "--warmup", "2", "--quiet"};
}

class Compare : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cwd_ = new TempDir;
    for (const char* out : {"cpu1", "cpu2"}) {
      const RunResult r = run_cumap(quick_cpu_map(out), cwd_->path());
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
  static void TearDownTestSuite() {
    delete cwd_;
    cwd_ = nullptr;
  }
  static fs::path cwd() { return cwd_->path(); }
  static TempDir* cwd_;
};
TempDir* Compare::cwd_ = nullptr;

TEST_F(Compare, TheCommittedH200RunAgainstItselfIsAlike) {
  const RunResult r = run_cumap({"compare", (kPlots / "h200").string(), (kPlots / "h200").string()}, cwd());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* part : {"One chip: every matrix file is compared cell by cell.",
                           "None: both runs measured with the same settings.", "## Structure",
                           "| matrix-same-line-home0.csv | 17292 | 1.0000 | 0.00 % | 0.00 % | none |",
                           "| line-spread-split-line.csv |", "Every SM is on the same side in both runs.",
                           "Alike within 3 %"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  // Settings come before any number.
  EXPECT_LT(r.out.find("## Settings that differ"), r.out.find("## Structure"));
}

TEST_F(Compare, AnotherChipComparesStructureAndRefusesCells) {
  const RunResult r = run_cumap({"compare", (kPlots / "h200").string(), (kPlots / "h100").string()}, cwd());
  // The two committed chips share their structure within the default 3 %
  // (near side 267.8 / 267.2 ns, far side 416.2 / 419.3, across sides 342.4 /
  // 343.3): alike (0), though their cells are never compared.
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Cells are not compared: A ran on NVIDIA H200 and B on NVIDIA H100 80GB HBM3: the SM ids of "
                       "one chip are not the SM ids of another"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("| device | NVIDIA H200 | NVIDIA H100 80GB HBM3 |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("## Structure"), std::string::npos);
  EXPECT_NE(r.out.find("## Sides and groups"), std::string::npos);
  EXPECT_EQ(r.out.find("| matrix-"), std::string::npos) << "no file compared cell by cell:\n" << r.out;
  const RunResult json =
      run_cumap({"compare", (kPlots / "h200").string(), (kPlots / "h100").string(), "--format", "json"}, cwd());
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_FALSE(j.at("same_chip").get<bool>());
  EXPECT_TRUE(j.at("files").empty());
  EXPECT_TRUE(j.at("alike").get<bool>());
}

TEST_F(Compare, AGpuRunAgainstACpuRunIsRefusedInOneLine) {
  const RunResult r = run_cumap({"compare", (kPlots / "h200").string(), "cpu1"}, cwd());
  expect_one_usage_line(r, "do not compare");
  EXPECT_EQ(r.out, "");
}

TEST_F(Compare, TwoCpuRunsOfThisMachineCompareEveryMatrixFileByName) {
  const RunResult same = run_cumap({"compare", "cpu1", "cpu1"}, cwd());
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  const RunResult r = run_cumap({"compare", "cpu1", "cpu2", "--format", "csv"}, cwd());
  // Two quick runs of a shared machine may or may not agree within 3 %.
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  EXPECT_EQ(r.out.rfind("section,name,a,b,b_minus_a,relative_difference,pearson_r,p95_relative_difference,count\n", 0),
            0u);
  for (const char* file : {"file,matrix-same-line.csv,", "file,matrix-split-line.csv,"})
    EXPECT_NE(r.out.find(file), std::string::npos) << file << "\n" << r.out;
  EXPECT_NE(r.out.find("\nverdict,"), std::string::npos);
  // Two runs of a busy shared machine may differ by any amount, or in their
  // home classes: the exit code is the verdict's, whatever it is.
  const RunResult verdict = run_cumap({"compare", "cpu1", "cpu2", "--format", "json"}, cwd());
  EXPECT_EQ(verdict.exit_code, nlohmann::json::parse(verdict.out).at("alike").get<bool>() ? 0 : 1) << verdict.err;
}

// The threshold decides: a copy of a run whose headline matrix is 5 % slower
// is different at the default 3 % and alike at 10 %, and names that file.
TEST_F(Compare, TheThresholdDecidesTheExitCode) {
  fs::remove_all(cwd() / "slower");
  fs::copy(cwd() / "cpu1", cwd() / "slower", fs::copy_options::recursive);
  const fs::path csv = cwd() / "slower" / "matrix-same-line.csv";
  std::istringstream in(read_text(csv));
  std::string scaled, line;
  for (bool header = true; std::getline(in, line); header = false) {
    std::istringstream cells(line);
    std::string cell;
    for (int column = 0; std::getline(cells, cell, ','); ++column) {
      if (column > 0) scaled += ',';
      scaled += header || column == 0 || cell.empty() ? cell : std::to_string(std::stod(cell) * 1.05);
    }
    if (!line.empty() && line.back() == ',') scaled += ',';
    scaled += '\n';
  }
  { std::ofstream(csv) << scaled; }
  const RunResult strict = run_cumap({"compare", "cpu1", "slower"}, cwd());
  EXPECT_EQ(strict.exit_code, 1) << strict.out << strict.err;
  EXPECT_NE(strict.out.find("- matrix-same-line.csv: median cell difference 5.00 %"), std::string::npos) << strict.out;
  const RunResult loose = run_cumap({"compare", "cpu1", "slower", "--threshold", "10%"}, cwd());
  EXPECT_EQ(loose.exit_code, 0) << loose.out << loose.err;
}

TEST_F(Compare, OutWritesTheComparisonAndDifferenceHeatmapsAndNothingIntoTheRuns) {
  const auto before = snapshot(cwd() / "cpu1");
  const RunResult r = run_cumap({"compare", "cpu1", "cpu2", "-o", "diff"}, cwd());
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  EXPECT_EQ(snapshot(cwd() / "cpu1"), before);
  for (const char* file : {"compare.md", "compare.json", "meta.json", "diff-matrix-same-line.png",
                           "diff-matrix-split-line.png"})
    EXPECT_TRUE(fs::exists(cwd() / "diff" / file)) << file;
  EXPECT_TRUE(has_png_signature(cwd() / "diff" / "diff-matrix-same-line.png"));
  EXPECT_EQ(read_text(cwd() / "diff" / "compare.md"), r.out);
  // Again into the same directory: the set is replaced.
  EXPECT_TRUE(run_cumap({"compare", "cpu1", "cpu2", "-o", "diff"}, cwd()).exit_code <= 1);

  const RunResult into_a = run_cumap({"compare", "cpu1", "cpu2", "-o", "cpu1/diff"}, cwd());
  expect_one_usage_line(into_a, "inside");
  EXPECT_EQ(snapshot(cwd() / "cpu1"), before);
}

TEST_F(Compare, BadInputIsOneLine) {
  expect_one_usage_line(run_cumap({"compare", "cpu1", "nowhere"}, cwd()), "nowhere");
  expect_one_usage_line(run_cumap({"compare", "cpu1", "cpu2", "--threshold", "lots"}, cwd()), "--threshold");
  expect_one_usage_line(run_cumap({"compare", "cpu1", "cpu2", "--threshold", "-1%"}, cwd()), "--threshold");
  expect_one_usage_line(run_cumap({"compare", "cpu1", (kPlots / "h200" / "barrier").string()}, cwd()),
                        "barrier run");
}

TEST(CompareSync, TwoBarrierRunsCompareTheirCases) {
  TempDir cwd;
  for (const char* out : {"b1", "b2"}) {
    const RunResult r = run_cumap({"barrier", "--backend", "cpu", "--home-lines", "16", "--episodes", "50",
                                   "--quiet", "--out", out},
                                  cwd.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const RunResult same = run_cumap({"compare", "b1", "b1"}, cwd.path());
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("## At k = every unit of each set"), std::string::npos) << same.out;
  EXPECT_NE(same.out.find("| barrier.csv |"), std::string::npos) << same.out;
  const RunResult r = run_cumap({"compare", "b1", "b2", "--format", "json"}, cwd.path());
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("kind"), "barrier");
  // The committed H200 barrier run against itself: its cases from barrier.csv.
  const std::string h200 = (kPlots / "h200" / "barrier").string();
  EXPECT_EQ(run_cumap({"compare", h200, h200}, cwd.path()).exit_code, 0);
}

}  // namespace
}  // namespace cumap::test
