// Ctrl-C during a map keeps what was measured, and --resume completes it.
// The map is made long (64 lines of 200000 round trips for one pair of CPUs,
// about 3 s on CI's 2-core machine) so that a signal half a second in lands in
// the middle of it: at 20000 round trips the whole map once ended in 0.3 s,
// before the signal, and the test failed.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

const std::vector<std::string> kLongMap{"--backend", "cpu", "--same-line", "--units", "0-1", "--iters", "200000",
                                        "--samples", "5", "--home-lines", "64", "--rotating-count", "64",
                                        "--timeout-ms", "30000", "--quiet"};

// Starts cumap in `cwd`, sends SIGINT after `delay`, returns its exit status
// (-1 if it did not exit normally).
int run_and_interrupt(std::vector<std::string> args, const fs::path& cwd, std::chrono::milliseconds delay) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0) _exit(127);
    std::vector<char*> argv{const_cast<char*>(CUMAP_BINARY)};
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(CUMAP_BINARY, argv.data());
    _exit(127);
  }
  std::this_thread::sleep_for(delay);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::size_t rows(const fs::path& csv) {
  const std::string text = read_text(csv);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

bool has_temporary_files(const fs::path& dir) {
  for (const auto& [name, size] : snapshot(dir))
    if (name.find(".tmp") != std::string::npos) return true;
  return false;
}

TEST(InterruptResume, FirstSignalWritesWhatWasMeasuredAndResumeCompletesIt) {
  TempDir cwd;
  std::vector<std::string> args = kLongMap;
  args.insert(args.end(), {"--out", "D"});
  const int code = run_and_interrupt(args, cwd.path(), std::chrono::milliseconds(500));
  ASSERT_EQ(code, 130) << "the run should end with 130 after SIGINT";
  const fs::path d = cwd.path() / "D";
  EXPECT_FALSE(has_temporary_files(d));
  for (const char* f : {"meta.json", "pairs.csv", "matrix-same-line.csv", "homes.json", "heatmap-same-line.png"})
    EXPECT_TRUE(fs::is_regular_file(d / f)) << f;
  const auto meta = nlohmann::json::parse(read_text(d / "meta.json"));
  EXPECT_TRUE(meta.at("interrupted").get<bool>());
  EXPECT_FALSE(meta.at("maps")[0].at("complete").get<bool>());
  // One row per line of the one pair in each home class; a loaded machine
  // can show the CPU more than one class, and the rows follow homes.json.
  const auto classes = nlohmann::json::parse(read_text(d / "homes.json")).at("class_count").get<std::size_t>();
  const std::size_t all_rows = 1u + classes * 64u;
  const std::size_t partial = rows(d / "pairs.csv");
  EXPECT_LT(partial, all_rows) << "some of the 64 lines were still to come";

  // Same options, --resume instead of --out: only the missing lines are measured.
  std::vector<std::string> resume = kLongMap;
  resume.insert(resume.end(), {"--resume", "D"});
  const RunResult r = run_cumap(resume, cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(rows(d / "pairs.csv"), all_rows) << "the header and one row per line of the one pair and class";
  const auto done = nlohmann::json::parse(read_text(d / "meta.json"));
  EXPECT_FALSE(done.at("interrupted").get<bool>());
  EXPECT_TRUE(done.at("maps")[0].at("complete").get<bool>());
  EXPECT_FALSE(has_temporary_files(d));
}

TEST(InterruptResume, ResumeWithOtherOptionsIsBadInputNamingTheDifference) {
  TempDir cwd;
  std::vector<std::string> args = kLongMap;
  args.insert(args.end(), {"--out", "D"});
  ASSERT_EQ(run_and_interrupt(args, cwd.path(), std::chrono::milliseconds(500)), 130);
  const auto before = snapshot(cwd.path() / "D");
  std::vector<std::string> other = kLongMap;
  std::replace(other.begin(), other.end(), std::string("200000"), std::string("100000"));  // --iters
  other.insert(other.end(), {"--resume", "D"});
  const RunResult r = run_cumap(other, cwd.path());
  EXPECT_EQ(r.exit_code, 2);
  ASSERT_EQ(r.err_lines().size(), 1u) << r.err;
  EXPECT_NE(r.err.find("iters"), std::string::npos) << r.err;
  EXPECT_EQ(snapshot(cwd.path() / "D"), before) << "a refused resume changes nothing";
}

}  // namespace
}  // namespace cumap::test
