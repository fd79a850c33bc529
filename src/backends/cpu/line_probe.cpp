#include "backends/cpu/line_probe.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <limits>
#include <thread>

#include "backends/cpu/cpu_affinity.hpp"
#include "cumap/protocol.hpp"

namespace cumap::cpu {
namespace {

using Clock = std::chrono::steady_clock;

// ns per atomic of one chain. Each address is computed from the previous
// result, so the atomics cannot overlap: the word holds 0, and the result,
// folded into the line, moves the address by 0, but the CPU cannot know that
// before the previous atomic has returned.
double time_chain(std::atomic<std::uint32_t>* line, int chain) {
  auto* base = reinterpret_cast<std::byte*>(line);
  std::uint32_t previous = 0;
  const auto t0 = Clock::now();
  for (int i = 0; i < chain; ++i) {
    auto* word = reinterpret_cast<std::atomic<std::uint32_t>*>(
        base + (previous & (protocol::kLineBytes - protocol::kFlagBytes)));
    previous = word->fetch_add(0, std::memory_order_relaxed);
  }
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / chain;
}

constexpr int kMinChain = 256;
constexpr int kMinRepeats = 7;

}  // namespace

std::vector<double> probe_lines_from_cpu(int cpu, const std::vector<std::atomic<std::uint32_t>*>& lines, int chain,
                                         int repeats) {
  // A CPU thread can be preempted, share its core with a neighbour or slow
  // down with the clock, which only ever adds time: the fastest of several
  // chains is the line's latency (the median let a busy machine's noise split
  // lines into false classes). The repeats are sweeps over every line, not
  // back-to-back chains on one line: a slow stretch of time then costs each
  // line one sweep, instead of making a run of consecutive lines look like a
  // class of their own (seen on a loaded 2-core CI machine).
  // steady_clock is coarse against one atomic (~6 ns), so chains are long.
  chain = std::max(chain, kMinChain);
  repeats = std::max(repeats, kMinRepeats);
  std::vector<double> fastest_ns(lines.size(), std::numeric_limits<double>::infinity());
  std::exception_ptr error;
  std::thread prober([&] {
    try {
      pin_current_thread(cpu);
      for (int sweep = 0; sweep < repeats; ++sweep)
        for (std::size_t l = 0; l < lines.size(); ++l) fastest_ns[l] = std::min(fastest_ns[l], time_chain(lines[l], chain));
    } catch (...) {
      error = std::current_exception();
    }
  });
  prober.join();
  if (error) std::rethrow_exception(error);
  return fastest_ns;
}

}  // namespace cumap::cpu
