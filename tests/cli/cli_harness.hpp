#pragma once
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "temp_dir.hpp"

// Black-box helpers: run the real cumap binary (CUMAP_BINARY) as a user would,
// in a scratch directory, and look at what it left on disk.
namespace cumap::test {

struct RunResult {
  int exit_code = -1;  // -1 when the process did not exit normally (signal)
  std::string out;
  std::string err;
  std::vector<std::string> err_lines() const;
};

// Runs `cumap args...` with `cwd` as working directory. stdout and stderr go
// to files (so stderr is never a terminal, as in CI logs) and are read back.
RunResult run_cumap(const std::vector<std::string>& args, const std::filesystem::path& cwd);

// Every path under `dir` (relative) with its size, or -1 for directories;
// empty when `dir` does not exist. Two snapshots equal = nothing was written.
std::map<std::string, long long> snapshot(const std::filesystem::path& dir);

// Bad input's contract: exit code 2 and exactly one line on stderr,
// "cumap: error: ...", naming `mentions` (lowercase; compared case-blind).
void expect_one_usage_line(const RunResult& r, const std::string& mentions);

// Starts cumap in `cwd`, sends SIGINT `delay` after it has staged its --out
// (in `cwd`), returns its exit status (-1 if it did not exit normally);
// `after_signal`, where given, is how long it took to exit after the signal.
int run_and_interrupt(std::vector<std::string> args, const std::filesystem::path& cwd,
                      std::chrono::milliseconds delay, std::chrono::milliseconds* after_signal = nullptr);

// A small, quick map on the cpu backend (two units, few round trips, 64 home
// lines, --quiet) with `extra` after it.
std::vector<std::string> quick_map(std::vector<std::string> extra, const std::string& iters = "20");

// The names of the entries of `dir`.
std::set<std::string> file_names(const std::filesystem::path& dir);
// What a run staged beside `dir` and left there (".cumap-" names in its parent).
std::vector<std::string> leftovers_beside(const std::filesystem::path& dir);

std::string read_text(const std::filesystem::path& file);
void write_text(const std::filesystem::path& file, const std::string& text);
bool has_png_signature(const std::filesystem::path& file);

}  // namespace cumap::test
