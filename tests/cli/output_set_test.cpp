// An output directory is one consistent set: a run's files replace the
// previous set whole, or not at all; one run at a time writes into it.
#include <signal.h>
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
#include "cumap/error.hpp"
#include "publish/output_set.hpp"

namespace cumap::test {
namespace {

namespace fs = std::filesystem;

TEST(OutputSet, FilesOfAnEarlierSetDoNotSurviveBesideANewOne) {
  TempDir cwd;
  ASSERT_EQ(run_cumap(quick_map({"--out", "D"}), cwd.path()).exit_code, 0);
  ASSERT_TRUE(fs::exists(cwd.path() / "D" / "matrix-split-line.csv"));
  ASSERT_EQ(run_cumap(quick_map({"--out", "D", "--same-line"}), cwd.path()).exit_code, 0);
  EXPECT_TRUE(fs::exists(cwd.path() / "D" / "matrix-same-line.csv"));
  EXPECT_FALSE(fs::exists(cwd.path() / "D" / "matrix-split-line.csv")) << "a file the new meta.json does not describe";
  // The earlier run's two-placement overview does not survive; the new run
  // draws its own only where its home discovery found several classes (one
  // placement's classes side by side), as a loaded CPU sometimes does.
  const auto meta = nlohmann::json::parse(read_text(cwd.path() / "D" / "meta.json"));
  EXPECT_EQ(fs::exists(cwd.path() / "D" / "heatmap.png"), meta.at("homes").at("class_count").get<int>() > 1)
      << "the overview is the new run's, or none";
  EXPECT_TRUE(leftovers_beside(cwd.path() / "D").empty());
}

TEST(OutputSet, ADirectoryOfOtherFilesIsRefusedBeforeMeasuring) {
  TempDir cwd;
  fs::create_directory(cwd.path() / "mine");
  write_text(cwd.path() / "mine" / "notes.txt", "keep me\n");
  const auto before = snapshot(cwd.path());
  const RunResult r = run_cumap(quick_map({"--out", "mine"}), cwd.path());
  expect_one_usage_line(r, "not a cumap output set");
  EXPECT_EQ(snapshot(cwd.path()), before);
}

TEST(OutputSet, ASecondRunIntoTheSameDirectoryIsRefused) {
  TempDir cwd;
  ASSERT_EQ(run_cumap(quick_map({"--out", "D"}), cwd.path()).exit_code, 0);
  const auto before = snapshot(cwd.path() / "D");
  {
    OutputSet held(cwd.path() / "D");  // as a run in progress holds it
    const RunResult r = run_cumap(quick_map({"--out", "D"}), cwd.path());
    expect_one_usage_line(r, "another cumap run is writing to");
  }
  EXPECT_EQ(snapshot(cwd.path() / "D"), before);
  EXPECT_TRUE(leftovers_beside(cwd.path() / "D").empty());
}

TEST(OutputSet, AnUnpublishedSetLeavesThePreviousOneUntouched) {
  TempDir dir;
  const fs::path out = dir.path() / "D";
  {
    OutputSet first(out);
    first.write("meta.json", R"({"tool": "cumap", "run": 1})");
    first.write("matrix-split-line.csv", "unit,0\n0,\n");
    first.publish();
  }
  const auto before = snapshot(out);
  {
    OutputSet failed(out);
    failed.write("meta.json", R"({"tool": "cumap", "run": 2})");
    // The run fails here: no publish().
  }
  EXPECT_EQ(snapshot(out), before);
  EXPECT_NE(read_text(out / "meta.json").find("\"run\": 1"), std::string::npos);
  EXPECT_TRUE(leftovers_beside(out).empty());
}

TEST(OutputSet, AFailedFirstRunLeavesNoDirectory) {
  TempDir dir;
  { OutputSet failed(dir.path() / "a" / "b" / "D"); }
  EXPECT_FALSE(fs::exists(dir.path() / "a")) << "the parents it created go too";
}

// A second signal ends the run at once: nothing it created stays behind,
// neither its staging directory nor the directories it made for --out.
TEST(OutputSet, ASecondSignalRemovesWhatTheRunCreated) {
  TempDir cwd;
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.path().c_str()) != 0) _exit(127);
    // Home discovery of 65536 lines takes seconds and has no safe point to
    // stop at: both signals arrive while it runs, whatever the machine's speed.
    std::vector<std::string> args{"--backend", "cpu", "--units", "0-1", "--home-lines", "65536", "--home-stride",
                                  "128", "--quiet", "--out", "n1/n2/D"};
    std::vector<char*> argv{const_cast<char*>(CUMAP_BINARY)};
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(CUMAP_BINARY, argv.data());
    _exit(127);
  }
  // Long enough that the set's directories exist (they are made before homes).
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(pid, SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_FALSE(fs::exists(cwd.path() / "n1")) << "left: " << snapshot(cwd.path()).size() << " paths";
}

}  // namespace
}  // namespace cumap::test
