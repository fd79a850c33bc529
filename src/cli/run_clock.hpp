#pragma once
// The clock of one command (a map or `cumap homes`): each phase's seconds as
// it ends (meta.json's phase_seconds), then who ran what, where and for how
// long, stamped before the outputs are written.
#include <chrono>
#include <string>
#include <utility>

#include "cumap/result.hpp"
#include "report/meta_json.hpp"

namespace cumap::cli {

class RunClock {
 public:
  explicit RunClock(RunInfo& run) : run_(&run) {}

  // Ends the phase that ran since the previous call (or since construction).
  void end_phase(std::string name) {
    const auto now = std::chrono::steady_clock::now();
    run_->phase_seconds.emplace_back(std::move(name), seconds(last_, now));
    last_ = now;
  }

  void stamp(const std::string& command_line) {
    run_->tool_version = CUMAP_VERSION;
    run_->timestamp_utc = utc_timestamp_now();
    run_->host_name = host_name();
    run_->command_line = command_line;
    run_->wall_seconds = seconds(started_, std::chrono::steady_clock::now());
  }

 private:
  using Time = std::chrono::steady_clock::time_point;
  static double seconds(Time from, Time to) { return std::chrono::duration<double>(to - from).count(); }

  RunInfo* run_;
  Time started_ = std::chrono::steady_clock::now();
  Time last_ = started_;
};

}  // namespace cumap::cli
