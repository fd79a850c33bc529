// `cumap barrier` and `cumap contention` end to end on the cpu backend: the
// files they write, bad input that exits 2 leaving nothing, and Ctrl-C
// keeping the cases measured.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace cumap::test {
namespace {

namespace fs = std::filesystem;

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// Few lines and episodes: a run takes a moment.
std::vector<std::string> sync_args(const std::string& command, std::vector<std::string> extra) {
  std::vector<std::string> args{command, "--backend", "cpu", "--home-lines", "16", "--episodes", "50"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(Barrier, WritesItsCsvPlotSummaryAndMeta) {
  TempDir cwd;
  const RunResult r = run_cumap(sync_args("barrier", {"--out", "B"}), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path out = cwd.path() / "B";
  EXPECT_EQ(file_names(out), (std::set<std::string>{"barrier.csv", "barrier.png", "summary.md", "report.html",
                                                     "homes.csv", "homes.json", "meta.json"}));
  EXPECT_TRUE(has_png_signature(out / "barrier.png"));
  const std::string csv = read_text(out / "barrier.csv");
  EXPECT_EQ(csv.rfind("implementation,k,set,counter_home,", 0), 0u) << csv;
  // Two CPUs: counter, flag and platform at k = 2 (two-level needs two groups).
  EXPECT_NE(csv.find("\ncounter,2,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nplatform,2,"), std::string::npos) << csv;
  const auto meta = nlohmann::json::parse(read_text(out / "meta.json"));
  EXPECT_EQ(meta.at("tool"), "cumap");
  EXPECT_EQ(meta.at("command"), "barrier");
  EXPECT_TRUE(meta.at("complete").get<bool>());
  EXPECT_EQ(meta.at("options").at("episodes"), 50);
  // No --launches: the cpu backend's choice, recorded where a reader looks.
  EXPECT_EQ(meta.at("options").at("launches"), 10);
  EXPECT_EQ(meta.at("settings").at("launches"), 10);
  EXPECT_NE(csv.find(",10,"), std::string::npos) << "each case's launches";
  EXPECT_EQ(meta.at("cases").at("measured").get<std::size_t>(), line_count(csv) - 1);
  EXPECT_NE(read_text(out / "summary.md").find("## At k = every unit of each set"), std::string::npos);
  // One line on stdout.
  EXPECT_EQ(line_count(r.out), 1u) << r.out;
  EXPECT_NE(r.out.find("barrier case(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("written to B"), std::string::npos) << r.out;
}

TEST(Contention, WritesItsCsvWithTheRateAndItsPlot) {
  TempDir cwd;
  const RunResult r = run_cumap(sync_args("contention", {"--op", "add", "--ops-per-batch", "8", "--quiet", "--out", "C"}),
                                cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const fs::path out = cwd.path() / "C";
  EXPECT_TRUE(has_png_signature(out / "contention.png"));
  const std::string csv = read_text(out / "contention.csv");
  EXPECT_NE(csv.find("ops_per_batch,ops_per_us"), std::string::npos) << csv;
  // k = 1 (the uncontended line) and 2, add only.
  EXPECT_NE(csv.find("\nadd,1,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nadd,2,"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("\ncas,"), std::string::npos) << csv;
  const auto meta = nlohmann::json::parse(read_text(out / "meta.json"));
  EXPECT_EQ(meta.at("command"), "contention");
  EXPECT_EQ(meta.at("settings").at("ops_per_batch"), 8);
  EXPECT_EQ(meta.at("settings").at("launches"), 5) << "contention's own default on every backend";
}

TEST(SyncUsage, BadInputExitsTwoBeforeMeasuringAndWritesNothing) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"barrier", "--impl", "bogus"}, "--impl"},
      {{"barrier", "--k", "0"}, "--k"},
      {{"barrier", "--k", "2,x"}, "--k"},
      {{"barrier", "--k", ""}, "--k"},
      {{"barrier", "--episodes", "0"}, "--episodes"},
      {{"barrier", "--warmup", "-1"}, "--warmup"},
      {{"barrier", "--sets", "one-side,one-side"}, "--sets"},
      {{"barrier", "--probe", "mbarrier"}, "mbarrier"},
      {{"barrier", "--devices", "0,1"}, "--devices"},
      {{"barrier", "--units", "0"}, "two units"},
      {{"barrier", "--home-lines", "1"}, "--home-lines"},
      {{"barrier", "--timeout-ms", "0"}, "--timeout-ms"},
      {{"contention", "--op", "xor"}, "--op"},
      {{"contention", "--ops-per-batch", "0"}, "--ops-per-batch"},
      {{"contention", "--impl", "flag"}, "--impl"},
      {{"--iters", "5", "barrier"}, "--iters"},
  };
  for (const auto& [args, mentions] : cases) {
    TempDir cwd;
    std::vector<std::string> full = args;
    full.insert(full.end(), {"--backend", "cpu", "--out", "D"});
    if (args.front() == "--iters") full = {"--iters", "5", "barrier", "--backend", "cpu", "--out", "D"};
    const RunResult r = run_cumap(full, cwd.path());
    SCOPED_TRACE(args.front() + " " + args.at(1));
    expect_one_usage_line(r, mentions);
    EXPECT_TRUE(snapshot(cwd.path()).empty()) << "nothing written";
  }
}

TEST(SyncUsage, ADirectoryOfOtherFilesIsRefused) {
  TempDir cwd;
  fs::create_directory(cwd.path() / "D");
  write_text(cwd.path() / "D" / "notes.txt", "mine");
  const auto before = snapshot(cwd.path());
  const RunResult r = run_cumap(sync_args("barrier", {"--out", "D"}), cwd.path());
  expect_one_usage_line(r, "not a cumap output set");
  EXPECT_EQ(snapshot(cwd.path()), before);
}

TEST(SyncInterrupt, TheFirstSignalKeepsTheCasesMeasured) {
  // Three cases of a million episodes each (about 0.1-0.3 s apiece alone,
  // far more on a busy machine): the signal lands inside the sweep.
  TempDir cwd;
  const int code = run_and_interrupt({"barrier", "--backend", "cpu", "--home-lines", "16", "--episodes", "1000000",
                                      "--impl", "counter,flag,platform", "--quiet", "--out", "D"},
                                     cwd.path(), std::chrono::milliseconds(400));
  ASSERT_EQ(code, 130);
  const fs::path out = cwd.path() / "D";
  const auto meta = nlohmann::json::parse(read_text(out / "meta.json"));
  EXPECT_FALSE(meta.at("complete").get<bool>());
  EXPECT_TRUE(meta.at("interrupted").get<bool>());
  const std::size_t measured = meta.at("cases").at("measured");
  EXPECT_LT(measured, meta.at("cases").at("planned").get<std::size_t>());
  EXPECT_EQ(line_count(read_text(out / "barrier.csv")), 1 + measured) << "the CSV holds what meta.json counts";
  EXPECT_NE(read_text(out / "summary.md").find("Incomplete"), std::string::npos);
  for (const auto& [name, size] : snapshot(out)) EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
}

}  // namespace
}  // namespace cumap::test
