// The map command end to end on the CPU backend: which files appear and
// whether they read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"
#include "core/map_result.hpp"
#include "report/read/matrix_csv.hpp"

namespace cumap::test {
namespace {

namespace fs = std::filesystem;

// The documented quick run. The generous timeout keeps a busy 2-core CI VM
// from turning a descheduled thread into exit code 3.
std::vector<std::string> quick_map_args(std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"--backend", "cpu", "--out", "D", "--iters", "50", "--samples", "3",
                                "--timeout-ms", "20000"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// The files of a map of `placements` when home discovery found
// `class_count` classes: per-class maps and a line-spread matrix only with
// more than one class. This machine's CPU usually has one; a loaded one may
// show more, and the files must then follow what homes.json says.
// `blocks`: the run found two sides or two groups, whose means block-means.csv
// holds (a loaded VM can show the CPU one class or two).
std::set<std::string> map_files(const std::vector<std::string>& placements, int class_count, bool blocks) {
  std::set<std::string> names{"pairs.csv",  "meta.json",     "homes.csv",  "homes.json",  "heatmap-homes.png",
                              "units.csv", "topology.json", "summary.md", "report.html"};
  for (const std::string& p : placements) {
    names.insert({"matrix-" + p + ".csv", "heatmap-" + p + ".png"});
    if (class_count < 2) continue;
    names.insert("line-spread-" + p + ".csv");
    for (int c = 0; c < class_count; ++c)
      names.insert({"matrix-" + p + "-home" + std::to_string(c) + ".csv",
                    "heatmap-" + p + "-home" + std::to_string(c) + ".png"});
  }
  // heatmap.png: every placement's maps on one scale, each class apart and
  // all together; not for a single map, whose own picture says it all.
  if (placements.size() > 1 || class_count > 1) names.insert("heatmap.png");
  if (blocks) names.insert("block-means.csv");
  return names;
}

class Map : public ::testing::Test {
 protected:
  TempDir cwd;
  fs::path out() const { return cwd.path() / "D"; }
  int class_count() const {
    return nlohmann::json::parse(read_text(out() / "homes.json")).at("class_count").get<int>();
  }
  bool blocks() const {
    const auto topology = nlohmann::json::parse(read_text(out() / "topology.json"));
    return topology.value("sides", nlohmann::json::array()).size() > 1 ||
           topology.value("groups", nlohmann::json::array()).size() > 1;
  }
};

TEST_F(Map, BothPlacementsWriteEveryFile) {
  const RunResult r = run_cumap(quick_map_args(), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(file_names(out()), map_files({"same-line", "split-line"}, class_count(), blocks()));
  for (const char* png : {"heatmap-same-line.png", "heatmap-split-line.png", "heatmap.png", "heatmap-homes.png"})
    EXPECT_TRUE(has_png_signature(out() / png)) << png;
}

TEST_F(Map, SameLineAloneWritesOnlySameLineFiles) {
  const RunResult r = run_cumap(quick_map_args({"--same-line"}), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(file_names(out()), map_files({"same-line"}, class_count(), blocks()));
}

TEST_F(Map, SeveralLinesPerClassAddALineSpreadMatrix) {
  const RunResult r = run_cumap(quick_map_args({"--split-line", "--rotating-count", "2"}), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(out() / "line-spread-split-line.csv"));
  EXPECT_FALSE(fs::exists(out() / "matrix-same-line.csv"));
  // Every pair on two lines of each home class: two rows per pair and class.
  const std::string pairs = read_text(out() / "pairs.csv");
  const std::size_t n = nlohmann::json::parse(read_text(out() / "meta.json")).at("units").size();
  const auto classes = static_cast<std::size_t>(class_count());
  EXPECT_EQ(static_cast<std::size_t>(std::count(pairs.begin(), pairs.end(), '\n')), 1 + classes * 2 * n * (n - 1) / 2);
}

TEST_F(Map, MatrixCsvReadsBackWithPositiveOffDiagonalCells) {
  const RunResult r = run_cumap(quick_map_args(), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"matrix-same-line.csv", "matrix-split-line.csv"}) {
    const ValueMatrix m = read_matrix_csv(out() / name);
    ASSERT_GE(m.size(), 2u) << name;
    EXPECT_EQ(std::set<int>(m.units.begin(), m.units.end()).size(), m.size()) << "unit ids repeat in " << name;
    for (std::size_t row = 0; row < m.size(); ++row) {
      EXPECT_TRUE(std::isnan(m.at(row, row))) << name << " diagonal " << row;
      for (std::size_t col = 0; col < m.size(); ++col) {
        if (row == col) continue;
        EXPECT_TRUE(std::isfinite(m.at(row, col)) && m.at(row, col) > 0)
            << name << " cell " << m.units[row] << "," << m.units[col] << " = " << m.at(row, col);
      }
    }
  }
}

TEST_F(Map, MetaJsonRecordsBackendOptionsAndMaps) {
  const RunResult r = run_cumap(quick_map_args(), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto meta = nlohmann::json::parse(read_text(out() / "meta.json"));
  EXPECT_EQ(meta.at("backend"), "cpu");
  EXPECT_EQ(meta.at("options").at("iters"), 50);
  EXPECT_EQ(meta.at("options").at("samples"), 3);
  const auto& maps = meta.at("maps");
  ASSERT_TRUE(maps.is_array());
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0].at("placement"), "same-line");
  EXPECT_EQ(maps[1].at("placement"), "split-line");
  const std::size_t n = meta.at("units").size();
  for (const auto& m : maps) {
    EXPECT_EQ(m.at("pair_count").get<std::size_t>(), n * (n - 1) / 2);
    EXPECT_TRUE(m.at("timed_out_pairs").empty());
    EXPECT_GT(m.at("oneway_ns").at("median").get<double>(), 0.0);
  }
}

TEST_F(Map, PairsCsvHasOneRowPerPairPlacementAndClass) {
  const RunResult r = run_cumap(quick_map_args(), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::size_t n = nlohmann::json::parse(read_text(out() / "meta.json")).at("units").size();
  const std::string pairs = read_text(out() / "pairs.csv");
  EXPECT_EQ(pairs.rfind("a,b,via,placement,home_class,pass,first_flag,second_flag,", 0), 0u) << pairs.substr(0, 80);
  // One row per pair, placement and home class: a loaded machine can show
  // the CPU more than one class (CI did), and the rows must follow homes.json.
  const auto classes = static_cast<std::size_t>(class_count());
  const auto rows = static_cast<std::size_t>(std::count(pairs.begin(), pairs.end(), '\n'));
  EXPECT_EQ(rows, 1 + 2 * classes * n * (n - 1) / 2);
}

TEST_F(Map, WrittenMatrixRendersAgain) {
  ASSERT_EQ(run_cumap(quick_map_args({"--same-line"}), cwd.path()).exit_code, 0);
  const RunResult r = run_cumap({"render", "D/matrix-same-line.csv", "-o", "x.png"}, cwd.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has_png_signature(cwd.path() / "x.png"));
}

TEST_F(Map, ProgressWithoutTerminalIsOneLinePerStep) {
  const RunResult r = run_cumap(quick_map_args(), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "progress bar drawn into a log";
  EXPECT_EQ(r.err.find('\033'), std::string::npos) << "terminal escape in a log";
  const auto lines = r.err_lines();
  ASSERT_EQ(lines.size(), 3u) << r.err;
  EXPECT_EQ(lines[0].rfind("homes:", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("same-line:", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("split-line:", 0), 0u) << lines[2];
  EXPECT_NE(r.out.find("written to D"), std::string::npos) << r.out;
}

TEST_F(Map, QuietPrintsNothing) {
  const RunResult r = run_cumap(quick_map_args({"--quiet"}), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(fs::is_regular_file(out() / "meta.json"));
}

}  // namespace
}  // namespace cumap::test
