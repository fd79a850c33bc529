#include "cli/progress.hpp"

#include <unistd.h>

#include <fmt/format.h>

namespace cumap::cli {
namespace {

std::string clock_text(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  return fmt::format("{}:{:02d}", s / 60, static_cast<int>(s % 60));
}

}  // namespace

Progress::Progress(std::string label, std::string steps, bool quiet, std::FILE* stream)
    : label_(std::move(label)),
      steps_(std::move(steps)),
      quiet_(quiet),
      tty_(isatty(fileno(stream)) != 0),
      stream_(stream),
      start_(std::chrono::steady_clock::now()) {}

void Progress::update(std::size_t done, std::size_t total) {
  done_ = done;
  total_ = total;
  if (quiet_ || !tty_ || total == 0) return;
  const auto now = std::chrono::steady_clock::now();
  // Redrawing more often than 10 times a second only costs the measurement.
  if (done != total && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double frac = static_cast<double>(done) / static_cast<double>(total);
  const double eta = done > 0 ? elapsed * (1.0 - frac) / frac : 0.0;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(frac * kWidth);
  fmt::print(stream_, "\r{:<11} [{}{}] {:3.0f}% {}/{} {}, ETA {}  ", label_, std::string(filled, '#'),
             std::string(kWidth - filled, '.'), frac * 100.0, done, total, steps_, clock_text(eta));
  std::fflush(stream_);
}

void Progress::finish() {
  if (quiet_) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (tty_) fmt::print(stream_, "\r\033[K");
  fmt::print(stream_, "{}: {} {} measured in {:.2f} s\n", label_, done_, steps_, elapsed);
}

MapObserver PhaseProgress::observer() {
  MapObserver o;
  o.progress = [this](const std::string& phase) -> ProgressFn {
    const char* steps = phase == "homes" ? "units" : phase == "launches" ? "launches" : "rounds";
    current_ = std::make_shared<Progress>(phase, steps, quiet_);
    return [p = current_](std::size_t done, std::size_t total) { p->update(done, total); };
  };
  o.phase_done = [this](const std::string& phase) {
    finish();
    clock_.end_phase(phase);
  };
  return o;
}

void PhaseProgress::finish() {
  if (current_) current_->finish();
  current_.reset();
}

}  // namespace cumap::cli
