#pragma once
// The spin every cpu thread waits in (the ping-pong's pinger and ponger, a
// barrier's participants), and what the threads of one pair or one case
// share about ending early: the budget of each wait, the run's stop
// request, and whether one of them gave up.
#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "backends/cpu/cpu_pingpong.hpp"

namespace cumap::cpu {

struct Halt {
  Halt(double timeout_ms, const std::function<bool()>& s)
      : budget(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double, std::milli>(timeout_ms))),
        stop(s) {}
  std::chrono::steady_clock::duration budget;  // of every wait
  const std::function<bool()>& stop;           // the run's stop request; may be empty
  std::atomic<bool> abort{false};              // someone gave up: everyone stops waiting
  std::atomic<bool> stopped{false};            // because the stop request came

  // Asks the stop request; once it says true, every thread ends.
  bool stop_requested() {
    if (!stop || !stop()) return false;
    stopped.store(true);
    abort.store(true);
    return true;
  }
};

enum class WaitEnd { Arrived, GaveUp, TimedOut };  // GaveUp: another thread did, or the stop request came

// Spins until `arrived()`. Every kStopCheckRoundTrips spins it asks whether
// to give up, then the clock (read on every spin it would slow the poll
// loop itself), and with `yield` lets another thread run (more threads than
// free cores: tests, a busy machine). The budget starts at that first check,
// not on entry: a clock read on entry would sit in every round trip, and at
// the start of a timed segment it would follow the pinger's own read, the
// two together longer than a fast pair's round trip. A wait that runs out
// raises `abort` for the others.
template <typename Arrived>
WaitEnd spin_until(Halt& halt, bool yield, Arrived arrived) {
  std::chrono::steady_clock::time_point deadline{};
  for (unsigned spins = 1;; ++spins) {
    if (arrived()) return WaitEnd::Arrived;
    if ((spins & (kStopCheckRoundTrips - 1)) != 0) continue;
    if (halt.abort.load(std::memory_order_relaxed) || halt.stop_requested()) return WaitEnd::GaveUp;
    const auto now = std::chrono::steady_clock::now();
    if (deadline == std::chrono::steady_clock::time_point{}) deadline = now + halt.budget;
    if (now > deadline) {
      halt.abort.store(true);
      return WaitEnd::TimedOut;
    }
    if (yield) std::this_thread::yield();
  }
}

}  // namespace cumap::cpu
