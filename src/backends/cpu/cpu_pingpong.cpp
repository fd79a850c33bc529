#include "backends/cpu/cpu_pingpong.hpp"

#include <sched.h>

#include <chrono>
#include <exception>
#include <latch>
#include <memory>
#include <thread>

#include "backends/cpu/bounded_wait.hpp"
#include "backends/cpu/cpu_affinity.hpp"
#include "backends/cpu/probe_ops.hpp"

namespace cumap::cpu {
namespace {

using Clock = std::chrono::steady_clock;
using u32 = std::uint32_t;

// What the two threads of one pair share.
struct PairState : Halt {
  // A constructor rather than aggregate initialization: clang 14 (the
  // sanitizer build) has no parenthesized aggregate init for make_unique.
  PairState(const PairJob& j, double timeout_ms, const std::function<bool()>& s) : Halt(timeout_ms, s), job(j) {}
  PairJob job;
};

struct SideResult {
  std::vector<double> segment_ns;  // per protocol segment this side pinged; NaN where it answered
  std::vector<int> segment_cpu;    // where this side ran as it ended a segment it pinged; -1 elsewhere
  bool timed_out = false;
  std::exception_ptr error;
};

// Spins until `flag` holds k; false when the budget ran out, the partner
// gave up or the stop request came.
bool wait_for(PairState& st, Probe probe, std::atomic<u32>& flag, u32 k) {
  return spin_until(st, false, [&] { return poll(probe, flag, k) == k; }) == WaitEnd::Arrived;
}

// The measured loop: one side of one pair, walking the protocol's segments.
void run_side(bool i_am_a, PairState& st, const protocol::Counts& c, Probe probe, std::latch& start,
              SideResult& out) {
  try {
    pin_current_thread(i_am_a ? st.job.cpu_a : st.job.cpu_b);
  } catch (...) {
    out.error = std::current_exception();
    st.abort.store(true);
    start.count_down();  // the round must not wait for this thread
    return;
  }
  start.arrive_and_wait();
  out.segment_ns.assign(static_cast<std::size_t>(protocol::segment_count(c)), kNaN);
  out.segment_cpu.assign(static_cast<std::size_t>(protocol::segment_count(c)), -1);
  u32 k = 0;
  for (int s = 0; s < protocol::segment_count(c); ++s) {
    const protocol::Segment seg = protocol::segment(c, s);
    const bool ping = seg.a_pings == i_am_a;
    Clock::time_point t0, t1;
    for (int i = 0; i < seg.count; ++i) {
      ++k;
      // A sample of millions of round trips must not hold a Ctrl-C up: the
      // stop request is asked every kStopCheckRoundTrips of them.
      if ((k & (kStopCheckRoundTrips - 1)) == 0 && st.stop_requested()) return;
      if (ping) {
        signal(probe, *st.job.first, k);
        // protocol.hpp: timed from just after the first ping to just after the last
        if (i == 0) t0 = Clock::now();
        if (i == seg.count - 1) t1 = Clock::now();
      }
      if (!wait_for(st, probe, ping ? *st.job.second : *st.job.first, k)) {
        out.timed_out = true;
        return;
      }
      if (!ping) signal(probe, *st.job.second, k);
    }
    if (ping) {
      out.segment_ns[s] = std::chrono::duration<double, std::nano>(t1 - t0).count();
      out.segment_cpu[s] = ::sched_getcpu();
      if (seg.sample >= 0 && st.job.stall_after_timing_ns > 0) {
        const Clock::time_point until =
            Clock::now() + std::chrono::nanoseconds(static_cast<long long>(st.job.stall_after_timing_ns));
        while (Clock::now() < until) {
        }
      }
    }
  }
}

// Adds each sample's segments (each timed by its own pinger) into the
// pair's timing; a stopped pair has none (its partner's wait ended
// "timed out" only because this side stopped).
PairTiming combine(const PairState& st, const SideResult& a, const SideResult& b, const protocol::Counts& c) {
  PairTiming t;
  t.stopped = st.stopped.load();
  if (t.stopped) return t;
  t.timed_out = a.timed_out || b.timed_out;
  if (t.timed_out) return t;
  std::vector<double> sample_ns(static_cast<std::size_t>(c.samples), 0.0);
  for (int s = 0; s < protocol::segment_count(c); ++s) {
    const protocol::Segment seg = protocol::segment(c, s);
    const double ns = seg.a_pings ? a.segment_ns[s] : b.segment_ns[s];
    t.pinger_cpu.push_back(seg.a_pings ? a.segment_cpu[s] : b.segment_cpu[s]);
    if (seg.sample == protocol::kColdSample) t.cold_rtt_ns = ns;
    if (seg.sample >= 0) sample_ns[seg.sample] += ns;
  }
  for (double ns : sample_ns) t.rtt_ns.push_back(ns / c.iters);
  return t;
}

}  // namespace

std::vector<PairTiming> run_cpu_round(const std::vector<PairJob>& jobs, const protocol::Counts& counts, Probe probe,
                                      double timeout_ms, const std::function<bool()>& stop) {
  std::vector<std::unique_ptr<PairState>> states;  // atomics do not move: one allocation each
  for (const PairJob& job : jobs) states.push_back(std::make_unique<PairState>(job, timeout_ms, stop));
  std::vector<SideResult> a(jobs.size()), b(jobs.size());
  std::latch start(static_cast<std::ptrdiff_t>(2 * jobs.size()));
  {
    std::vector<std::jthread> threads;
    for (std::size_t p = 0; p < jobs.size(); ++p) {
      threads.emplace_back(run_side, true, std::ref(*states[p]), std::cref(counts), probe, std::ref(start),
                           std::ref(a[p]));
      threads.emplace_back(run_side, false, std::ref(*states[p]), std::cref(counts), probe, std::ref(start),
                           std::ref(b[p]));
    }
  }  // jthreads join here
  std::vector<PairTiming> out;
  for (std::size_t p = 0; p < jobs.size(); ++p) {
    if (a[p].error) std::rethrow_exception(a[p].error);
    if (b[p].error) std::rethrow_exception(b[p].error);
    out.push_back(combine(*states[p], a[p], b[p], counts));
  }
  return out;
}

}  // namespace cumap::cpu
