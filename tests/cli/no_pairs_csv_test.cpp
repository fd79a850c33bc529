// --no-pairs-csv: a map's set without pairs.csv (410.1 MB across two GPUs,
// GBs across eight), whole otherwise, saying so wherever it would
// have pointed at the file, and refused by --resume, which needs it.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace cumap::test {
namespace {

namespace fs = std::filesystem;

TEST(NoPairsCsv, TheSetIsWholeButForPairsCsvAndItsSummaryIsReproduced) {
  TempDir cwd;
  const RunResult r = run_cumap(quick_map({"--out", "D", "--no-pairs-csv"}), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path d = cwd.path() / "D";
  EXPECT_FALSE(fs::exists(d / "pairs.csv"));
  for (const char* f : {"meta.json", "matrix-same-line.csv", "matrix-split-line.csv", "summary.md", "report.html",
                        "units.csv", "homes.csv"})
    EXPECT_TRUE(fs::is_regular_file(d / f)) << f;
  const auto meta = nlohmann::json::parse(read_text(d / "meta.json"));
  EXPECT_FALSE(meta.at("options").at("pairs_csv").get<bool>());
  const std::string md = read_text(d / "summary.md");
  EXPECT_EQ(md.find("read_csv(\"pairs.csv\")"), std::string::npos) << "no loading of a file that is not there\n" << md;
  EXPECT_EQ(md.find("read.csv(\"pairs.csv\")"), std::string::npos) << md;
  EXPECT_NE(md.find("`pairs.csv` (every pair on every line) was left out (--no-pairs-csv)"), std::string::npos) << md;
  const RunResult summary = run_cumap({"summary", "D"}, cwd.path());
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_EQ(summary.out, md);
}

TEST(NoPairsCsv, ByDefaultTheSetHasPairsCsvAndSaysHowToLoadIt) {
  TempDir cwd;
  ASSERT_EQ(run_cumap(quick_map({"--out", "D"}), cwd.path()).exit_code, 0);
  EXPECT_TRUE(fs::is_regular_file(cwd.path() / "D" / "pairs.csv"));
  EXPECT_TRUE(nlohmann::json::parse(read_text(cwd.path() / "D" / "meta.json")).at("options").at("pairs_csv").get<bool>());
  EXPECT_NE(read_text(cwd.path() / "D" / "summary.md").find("read_csv(\"pairs.csv\")"), std::string::npos);
}

TEST(NoPairsCsv, AnEarlierSetsPairsCsvDoesNotSurvive) {
  TempDir cwd;
  ASSERT_EQ(run_cumap(quick_map({"--out", "D"}), cwd.path()).exit_code, 0);
  ASSERT_TRUE(fs::exists(cwd.path() / "D" / "pairs.csv"));
  ASSERT_EQ(run_cumap(quick_map({"--out", "D", "--no-pairs-csv"}), cwd.path()).exit_code, 0);
  EXPECT_FALSE(fs::exists(cwd.path() / "D" / "pairs.csv")) << "it would describe another run";
}

TEST(NoPairsCsv, ResumingSuchASetIsOneLineExit2AndLeavesItAsItWas) {
  TempDir cwd;
  ASSERT_EQ(run_cumap(quick_map({"--out", "D", "--no-pairs-csv"}), cwd.path()).exit_code, 0);
  const auto before = snapshot(cwd.path() / "D");
  const RunResult r = run_cumap(quick_map({"--resume", "D", "--no-pairs-csv"}), cwd.path());
  expect_one_usage_line(r, "--no-pairs-csv");
  EXPECT_EQ(snapshot(cwd.path() / "D"), before);
}

}  // namespace
}  // namespace cumap::test
