#pragma once

namespace cumap {

// What measuring code polls at safe points (between pairs, between launches)
// to end a run early but cleanly.
class StopRequest {
 public:
  virtual ~StopRequest() = default;
  virtual bool stop_requested() const = 0;
};

// For callers that never stop early (tests, benchmarks).
class NeverStop final : public StopRequest {
 public:
  bool stop_requested() const override { return false; }
};

// Ctrl-C, kill and a closed terminal while a map runs. While an
// InterruptHandler exists, the first SIGINT, SIGTERM or SIGHUP only sets the
// stop request (and says so on stderr): the run stops at its next safe point
// and writes what it has. A second one removes every registered temporary
// file (see temp_files.hpp) and exits with status 130 at once.
// One at a time per process; the destructor restores the previous handlers.
class InterruptHandler final : public StopRequest {
 public:
  static constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as shells report it

  InterruptHandler();  // throws std::logic_error if another one exists
  ~InterruptHandler() override;
  InterruptHandler(const InterruptHandler&) = delete;
  InterruptHandler& operator=(const InterruptHandler&) = delete;

  bool stop_requested() const override;
  // The first signal received (SIGINT, SIGTERM or SIGHUP), 0 if none yet.
  int signal_number() const;
};

}  // namespace cumap
