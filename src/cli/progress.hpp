#pragma once
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace cumap::cli {

// A progress bar with ETA on stderr when it is a terminal; otherwise one
// summary line when the task ends (logs stay readable). Silent when quiet.
class Progress {
 public:
  // `steps` names what is counted: "rounds", "units".
  Progress(std::string label, std::string steps, bool quiet, std::FILE* stream = stderr);
  void update(std::size_t done, std::size_t total);
  void finish();

 private:
  std::string label_;
  std::string steps_;
  bool quiet_;
  bool tty_;
  std::FILE* stream_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_{};
  std::size_t done_ = 0;
  std::size_t total_ = 0;
};

}  // namespace cumap::cli
