// Signal handlers that turn the first interrupt into a stop request and the
// second into an immediate, clean exit.
#include "cli/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <stdexcept>

#include "publish/temp_files.hpp"

namespace cumap {
namespace {

constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};

// The one justified global: a signal handler receives only the signal
// number, so what it records must live in static storage. Lock-free atomics
// are async-signal-safe; each is constant-initialised.
struct HandlerState {
  std::atomic<int> signals_seen{0};
  std::atomic<int> first_signal{0};
  std::atomic<bool> installed{false};
  std::array<struct sigaction, kSignals.size()> previous{};
};
HandlerState& state() {
  static HandlerState s;
  return s;
}

void say(const char* text, std::size_t length) {
  // write(2) is async-signal-safe; a failed diagnostic is not worth handling.
  [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, text, length);
}

extern "C" void on_interrupt(int signal_number) {
  HandlerState& s = state();
  if (s.signals_seen.fetch_add(1) == 0) {
    s.first_signal.store(signal_number);
    static constexpr char kFirst[] =
        "\ncumap: interrupted: stopping after the current step and writing what was measured "
        "(interrupt again to quit now)\n";
    say(kFirst, sizeof kFirst - 1);
    return;
  }
  remove_registered_temp_files();
  static constexpr char kSecond[] = "\ncumap: interrupted again: quitting\n";
  say(kSecond, sizeof kSecond - 1);
  ::_exit(InterruptHandler::kExitInterrupted);
}

}  // namespace

InterruptHandler::InterruptHandler() {
  HandlerState& s = state();
  if (s.installed.exchange(true)) throw std::logic_error("InterruptHandler: only one may exist at a time");
  s.signals_seen.store(0);
  s.first_signal.store(0);
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  // The handler must not run nested inside itself for another of the three.
  for (int sig : kSignals) sigaddset(&action.sa_mask, sig);
  // Restart interrupted reads and writes: output code need not handle EINTR.
  action.sa_flags = SA_RESTART;
  for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &action, &s.previous[i]);
}

InterruptHandler::~InterruptHandler() {
  HandlerState& s = state();
  for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &s.previous[i], nullptr);
  s.installed.store(false);
}

bool InterruptHandler::stop_requested() const { return state().signals_seen.load() > 0; }

int InterruptHandler::signal_number() const { return state().first_signal.load(); }

}  // namespace cumap
