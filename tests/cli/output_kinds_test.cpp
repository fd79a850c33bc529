// What the hostile campaign found (issue 40), end to end on the real binary:
// a run never replaces a set of another command unless told to; a set gets
// the permissions of a plain mkdir and write, and keeps its own on a
// re-run; what a killed run left is cleared by the next; what can be
// checked before measuring is, and text that is not UTF-8 is written, not
// failed on after measuring; small inconsistencies of the command line.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace cumap::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> quick_sync(const std::string& command, std::vector<std::string> extra) {
  std::vector<std::string> args{command,  "--backend", "cpu",        "--units", "0-1", "--home-lines",
                                "16",     "--episodes", "20",        "--launches", "1", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::string kind_of(const fs::path& set) {
  return nlohmann::json::parse(read_text(set / "meta.json")).value("kind", std::string("none"));
}

// `cumap barrier --out <a map's set>` deleted the map's pairs.csv, matrices
// and report, and exited 0.
TEST(OutputKinds, ARunRefusesToReplaceASetOfAnotherCommand) {
  TempDir cwd;
  ASSERT_EQ(run_cumap(quick_map({"--out", "M"}), cwd.path()).exit_code, 0);
  EXPECT_EQ(kind_of(cwd.path() / "M"), "map");
  const auto before = snapshot(cwd.path());
  expect_one_usage_line(run_cumap(quick_sync("barrier", {"--out", "M"}), cwd.path()), "--replace");
  expect_one_usage_line(run_cumap(quick_sync("contention", {"--out", "M"}), cwd.path()), "a map set");
  expect_one_usage_line(run_cumap({"homes", "--backend", "cpu", "--home-lines", "16", "--out", "M"}, cwd.path()),
                        "a map set");
  EXPECT_EQ(snapshot(cwd.path()), before);
  // Told to, it does; and a map into the barrier's set is refused in turn.
  const RunResult replaced = run_cumap(quick_sync("barrier", {"--out", "M", "--replace"}), cwd.path());
  ASSERT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_EQ(kind_of(cwd.path() / "M"), "barrier");
  EXPECT_FALSE(fs::exists(cwd.path() / "M" / "pairs.csv"));
  expect_one_usage_line(run_cumap(quick_map({"--out", "M"}), cwd.path()), "a barrier set");
  // A set of its own kind is replaced as before.
  ASSERT_EQ(run_cumap(quick_sync("barrier", {"--out", "M"}), cwd.path()).exit_code, 0);
  ASSERT_EQ(run_cumap({"homes", "--backend", "cpu", "--home-lines", "16", "--out", "H"}, cwd.path()).exit_code, 0);
  EXPECT_EQ(kind_of(cwd.path() / "H"), "homes");
  ASSERT_EQ(run_cumap(quick_sync("contention", {"--out", "C"}), cwd.path()).exit_code, 0);
  EXPECT_EQ(kind_of(cwd.path() / "C"), "contention");
}

// A set of an earlier cumap, whose meta.json has no "kind", is told by the
// keys its command wrote.
TEST(OutputKinds, AnEarlierCumapsSetIsToldByWhatItHolds) {
  TempDir cwd;
  ASSERT_EQ(run_cumap(quick_map({"--out", "M"}), cwd.path()).exit_code, 0);
  auto meta = nlohmann::json::parse(read_text(cwd.path() / "M" / "meta.json"));
  meta.erase("kind");
  write_text(cwd.path() / "M" / "meta.json", meta.dump(2));
  expect_one_usage_line(run_cumap(quick_sync("barrier", {"--out", "M"}), cwd.path()), "a map set");
  EXPECT_EQ(run_cumap(quick_map({"--out", "M"}), cwd.path()).exit_code, 0);
}

// Every fresh --out was 0700 (a colleague could not open the report); a
// re-run or --resume by root made a user's 0755 set root's and 0700.
TEST(OutputKinds, AFreshSetIs0755Under022AndARerunKeepsTheSetsMode) {
  TempDir cwd;
  const mode_t before = ::umask(022);
  const RunResult r = run_cumap(quick_map({"--out", "a/D"}), cwd.path());
  ::umask(before);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto mode = [](const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
    return st.st_mode & 07777;
  };
  EXPECT_EQ(mode(cwd.path() / "a"), 0755u);
  EXPECT_EQ(mode(cwd.path() / "a" / "D"), 0755u);
  for (const auto& e : fs::directory_iterator(cwd.path() / "a" / "D"))
    EXPECT_EQ(mode(e.path()), 0644u) << e.path();
  ASSERT_EQ(::chmod((cwd.path() / "a" / "D").c_str(), 0750), 0);
  ASSERT_EQ(run_cumap(quick_map({"--out", "a/D"}), cwd.path()).exit_code, 0);
  EXPECT_EQ(mode(cwd.path() / "a" / "D"), 0750u);
}

// After SIGKILL a run's staging directory stayed beside --out forever.
TEST(OutputKinds, TheNextRunClearsTheStagingOfAKilledRun) {
  TempDir cwd;
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.path().c_str()) != 0) _exit(127);
    // Home discovery of 65536 lines takes seconds: the kill lands in it.
    std::vector<std::string> args{"--backend", "cpu", "--units", "0-1", "--home-lines", "65536", "--home-stride",
                                  "128", "--quiet", "--out", "D"};
    std::vector<char*> argv{const_cast<char*>(CUMAP_BINARY)};
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(CUMAP_BINARY, argv.data());
    _exit(127);
  }
  std::vector<std::string> left;
  for (int i = 0; i < 100 && left.size() < 2; ++i) {  // the staging directory and the lock
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    left = leftovers_beside(cwd.path() / "D");
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  ASSERT_EQ(leftovers_beside(cwd.path() / "D").size(), 2u) << "the killed run left nothing to clear";
  const RunResult r = run_cumap(quick_map({"--out", "D"}), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(leftovers_beside(cwd.path() / "D").empty());
  EXPECT_TRUE(fs::exists(cwd.path() / "D" / "meta.json"));
}

// A non-UTF-8 --out made the run measure, then fail on meta.json (exit 1,
// nothing published); `--out .` measured, then could not be swapped in.
TEST(OutputKinds, WhatWouldFailAtTheEndIsCheckedOrWrittenFirst) {
  TempDir cwd;
  const std::string latin1 = "lat\xe9in1";
  const RunResult r = run_cumap(quick_map({"--out", latin1}), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto meta = nlohmann::json::parse(read_text(cwd.path() / latin1 / "meta.json"));
  EXPECT_EQ(meta.at("options").at("out_dir"), "lat\xef\xbf\xbdin1") << "U+FFFD for the byte that is not UTF-8";
  expect_one_usage_line(run_cumap(quick_map({"--out", "."}), cwd.path()), "as a whole");
  expect_one_usage_line(run_cumap(quick_sync("barrier", {"--out", "x/.."}), cwd.path()), "as a whole");
}

// `barrier --k 999999999` ran home discovery before refusing, a barrier of
// k = 1 measured nothing; --version foo exited 0; --devices all and homes
// --devices 0 passed on the cpu backend where --devices 0,1 did not;
// --resume of a barrier's set said "--resume: DIR: --resume: ...".
TEST(OutputKinds, TheCommandLineIsConsistent) {
  TempDir cwd;
  expect_one_usage_line(run_cumap(quick_sync("barrier", {"--k", "999999999", "--out", "B"}), cwd.path()),
                        "more participants than the 2 unit(s)");
  expect_one_usage_line(run_cumap(quick_sync("contention", {"--k", "3", "--out", "B"}), cwd.path()),
                        "more participants");
  expect_one_usage_line(run_cumap(quick_sync("barrier", {"--k", "1", "--out", "B"}), cwd.path()),
                        "at least two participants");
  expect_one_usage_line(run_cumap({"--version", "foo"}, cwd.path()), "foo");
  expect_one_usage_line(run_cumap({"--version", "--iters", "5"}, cwd.path()), "--iters");
  for (const std::vector<std::string>& args :
       {quick_map({"--devices", "all"}), quick_map({"--devices", "0"}), quick_map({"--devices", "0,1"}),
        std::vector<std::string>{"homes", "--backend", "cpu", "--devices", "0"}})
    expect_one_usage_line(run_cumap(args, cwd.path()), "does not map across devices");
  EXPECT_TRUE(snapshot(cwd.path()).empty());

  ASSERT_EQ(run_cumap(quick_sync("barrier", {"--out", "B"}), cwd.path()).exit_code, 0);
  const RunResult resumed = run_cumap({"--resume", "B"}, cwd.path());
  expect_one_usage_line(resumed, "a barrier set");
  EXPECT_EQ(resumed.err.find("--resume:"), resumed.err.rfind("--resume:")) << resumed.err;
}

// Numbers out of range in homes.json (get<int> of 1e300, undefined
// behaviour) are refused as a file not as cumap writes it.
TEST(OutputKinds, AResumedHomesJsonWithHostileNumbersIsRefused) {
  TempDir cwd;
  const fs::path d = cwd.path() / "D";
  ASSERT_EQ(run_cumap(quick_map({"--out", "D"}), cwd.path()).exit_code, 0);
  auto meta = nlohmann::json::parse(read_text(d / "meta.json"));
  meta["interrupted"] = true;  // so that --resume reads on
  write_text(d / "meta.json", meta.dump(2));
  const auto homes = nlohmann::json::parse(read_text(d / "homes.json"));
  for (const char* key : {"device", "class_count"}) {
    for (const nlohmann::json& value : {nlohmann::json(1e300), nlohmann::json(-1e300), nlohmann::json("x")}) {
      auto hostile = homes;
      hostile[key] = value;
      write_text(d / "homes.json", hostile.dump());
      SCOPED_TRACE(key + (" = " + value.dump()));
      expect_one_usage_line(run_cumap({"--resume", "D"}, cwd.path()), "homes.json");
    }
  }
}

// `cumap summary DIR --format json` of an earlier barrier set, read from
// its CSV, failed on text that is not UTF-8 (internal error, exit 1).
TEST(OutputKinds, ASummaryOfTextThatIsNotUtf8IsWritten) {
  TempDir cwd;
  const fs::path b = cwd.path() / "B";
  ASSERT_EQ(run_cumap(quick_sync("barrier", {"--out", "B"}), cwd.path()).exit_code, 0);
  auto meta = nlohmann::json::parse(read_text(b / "meta.json"));
  meta["cases"].erase("at_every_unit");  // as an earlier cumap wrote it: the cases are in the CSV
  write_text(b / "meta.json", meta.dump(2));
  std::string csv = read_text(b / "barrier.csv");
  const std::size_t at = csv.find("\ncounter,");
  ASSERT_NE(at, std::string::npos) << csv;
  csv.replace(at + 1, 7, std::string("count\xff") + "er");
  write_text(b / "barrier.csv", csv);
  for (const char* format : {"json", "md", "csv"}) {
    const RunResult r = run_cumap({"summary", "B", "--format", format}, cwd.path());
    EXPECT_EQ(r.exit_code, 0) << format << ": " << r.err;
  }
  const RunResult json = run_cumap({"summary", "B", "--format", "json"}, cwd.path());
  EXPECT_NO_THROW((void)nlohmann::json::parse(json.out)) << json.out;
}

// A title of a megabyte in the meta.json given to `render --order` asked
// for 32 GB of pixels: the picture's text is cut, the picture stays small.
TEST(OutputKinds, AHugeTitleIsCutNotDrawn) {
  TempDir cwd;
  const fs::path d = cwd.path();
  write_text(d / "m.csv", "unit,0,1\n0,,5\n1,5,\n");
  const nlohmann::json meta = {{"tool", "cumap"},
                               {"display_order", {0, 1}},
                               {"heatmaps",
                                {{{"matrix", "m.csv"},
                                  {"heatmap", "m.png"},
                                  {"title", std::string(1 << 20, 'T')},
                                  {"panel_title", std::string(1 << 20, 'P')},
                                  {"value_label", "ns"},
                                  {"row_title", "a"},
                                  {"column_title", "b"},
                                  {"colormap", "viridis"}}}}};
  write_text(d / "meta.json", meta.dump());
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = run_cumap({"render", "m.csv", "-o", "m.png", "--order", "meta.json"}, d);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  const std::string png = read_text(d / "m.png");
  ASSERT_GT(png.size(), 24u);
  const auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned>(static_cast<unsigned char>(png[at])) << 24) |
           (static_cast<unsigned>(static_cast<unsigned char>(png[at + 1])) << 16) |
           (static_cast<unsigned>(static_cast<unsigned char>(png[at + 2])) << 8) |
           static_cast<unsigned>(static_cast<unsigned char>(png[at + 3]));
  };
  EXPECT_LT(be32(16), 10000u) << "width";   // IHDR: width, then height
  EXPECT_LT(be32(20), 10000u) << "height";
}

}  // namespace
}  // namespace cumap::test
