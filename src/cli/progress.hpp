#pragma once
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/run_clock.hpp"
#include "run/map_run.hpp"

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

// The console side of a map's steps, for measure_map: a Progress per phase
// ("homes" counts units, each placement its rounds), and each phase's time
// on the run's clock. Must outlive the measuring it observes.
class PhaseProgress {
 public:
  PhaseProgress(RunClock& clock, bool quiet) : clock_(clock), quiet_(quiet) {}
  // `progress` and `phase_done` set; the caller may add the others.
  MapObserver observer();
  // Ends the current phase's progress line (before printing under it).
  void finish();

 private:
  RunClock& clock_;
  bool quiet_;
  std::shared_ptr<Progress> current_;
};

}  // namespace cumap::cli
