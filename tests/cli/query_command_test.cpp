// `cumap query DIR --units LIST` as a user runs it, from files alone: a
// pair and a 16-SM set of the committed H200 run (its barrier and
// contention sweeps beside it), the same asked of a barrier run, a pair of
// a CPU run made here (whose pairs.csv gives each class's p05-p95), and the
// units a run does not hold refused in one line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace cumap::test {
namespace query_command_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

namespace fs = std::filesystem;
const fs::path kPlots = CUMAP_PLOTS_DIR;
const std::string kH200 = (kPlots / "h200").string();

TEST(Query, APairOfTheCommittedH200RunInEachClassAndPlacement) {
  TempDir cwd;
  const RunResult r = run_cumap({"query", kH200, "--units", "12,87"}, cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // SM 12 is on side 1 (GPC6), SM 87 on side 0 (GPC5): across sides in either class.
  for (const char* part : {"# cumap query: SM 12 and SM 87", "SM 12: side 1, GPC6. SM 87: side 0, GPC5.",
                           "| same-line | 0 | across sides |", "| same-line | 1 | across sides |",
                           "| split-line | every class (mean) | – |", "is cheaper for them"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  const RunResult json = run_cumap({"query", kH200, "--units", "87,12", "--format", "json"}, cwd.path());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  const auto& rows = j.at("pair").at("rows");
  ASSERT_EQ(rows.size(), 6u);  // two placements: two classes and the headline each
  for (const auto& row : rows) {
    EXPECT_GT(row.at("median_ns").get<double>(), 200.0);
    EXPECT_LT(row.at("median_ns").get<double>(), 600.0);
  }
  // The headline's line spread is line-spread-<placement>.csv's.
  EXPECT_TRUE(rows[2].at("line_spread_ns").is_number()) << rows[2];
  EXPECT_FALSE(j.at("pair").at("pairs_csv").get<bool>());
  const RunResult csv = run_cumap({"query", kH200, "--units", "12,87", "--format", "csv"}, cwd.path());
  EXPECT_EQ(csv.out.rfind("placement,home_class,where,median_ns,p05_ns,p95_ns,line_spread_ns,lines\n", 0), 0u);
}

TEST(Query, ASetOfSixteenSmsSharesAFlagAndMeetsTheBarrierSweep) {
  TempDir cwd;
  const RunResult r = run_cumap({"query", kH200, "--units", "0-15"}, cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* part : {"# cumap query: 16 SMs", "## A flag they share", "over the set's 120 pairs",
                           "is cheaper for a flag they share", "## Barrier at k = 16", "## Contention at k = 16",
                           "Measured on another chip", "| one-side | counter | near (0) |"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  const auto j = nlohmann::json::parse(run_cumap({"query", kH200, "--units", "0-15", "--format", "json"}, cwd.path()).out);
  EXPECT_EQ(j.at("set").at("units").size(), 16u);
  EXPECT_EQ(j.at("set").at("flag").size(), 6u);
  EXPECT_FALSE(j.at("set").at("cases").empty());
  for (const auto& c : j.at("set").at("cases")) EXPECT_EQ(c.at("k"), 16);
  // A barrier run's directory answers the same set with its cases alone.
  const RunResult barrier = run_cumap({"query", kH200 + "/barrier", "--units", "0-15"}, cwd.path());
  ASSERT_EQ(barrier.exit_code, 0) << barrier.err;
  EXPECT_EQ(barrier.out.find("## A flag they share"), std::string::npos);
  EXPECT_NE(barrier.out.find("| these units |"), std::string::npos) << barrier.out;
}

TEST(Query, UnitsTheRunDoesNotHoldAreOneLine) {
  TempDir cwd;
  expect_one_usage_line(run_cumap({"query", kH200, "--units", "12,140"}, cwd.path()), "140");
  expect_one_usage_line(run_cumap({"query", kH200, "--units", "12"}, cwd.path()), "two");
  expect_one_usage_line(run_cumap({"query", kH200, "--units", "12,x"}, cwd.path()), "--units");
  expect_one_usage_line(run_cumap({"query", kH200 + "/barrier", "--units", "1,2"}, cwd.path()), "map");
  expect_one_usage_line(run_cumap({"query", "nowhere", "--units", "1,2"}, cwd.path()), "nowhere");
}

TEST(Query, APairOfACpuRunWithItsLines) {
  TempDir cwd;
  const RunResult run = run_cumap({"--backend", "cpu", "--units", "0-1", "--out", "D", "--iters", "20", "--samples",
                                   "3", "--warmup", "2", "--quiet"},
                                  cwd.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const RunResult r = run_cumap({"query", "D", "--units", "0,1", "--format", "json"}, cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j.at("pair").at("pairs_csv").get<bool>());
  ASSERT_FALSE(j.at("pair").at("rows").empty());
  for (const auto& row : j.at("pair").at("rows")) {
    EXPECT_GT(row.at("lines").get<int>(), 0) << row;
    // A class's row has the percentiles of its lines; every class together
    // (a run that found classes) has the headline's line spread only.
    if (row.at("home_class") == "all") {
      EXPECT_TRUE(row.at("line_spread_ns").is_number()) << row;
      continue;
    }
    ASSERT_TRUE(row.at("p05_ns").is_number()) << row;
    EXPECT_LE(row.at("p05_ns").get<double>(), row.at("p95_ns").get<double>()) << row;
  }
}

}  // namespace
}  // namespace cumap::test
