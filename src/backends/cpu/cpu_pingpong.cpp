#include "backends/cpu/cpu_pingpong.hpp"

#include <chrono>
#include <exception>
#include <thread>
#include <vector>

#include "backends/cpu/cpu_affinity.hpp"

namespace cumap::cpu {
namespace {

using Clock = std::chrono::steady_clock;
using u32 = std::uint32_t;

// One stretch of round trips with a fixed pinger.
struct Segment {
  int pinger;  // cpu id
  int count;   // round trips
  int sample;  // which sample it belongs to; kCold, kWarmup
};
constexpr int kCold = -1;
constexpr int kWarmup = -2;

// Unordered pairs split every sample between the directions (a pings the
// first half, b the second), so a cell is the mean of both directions
// whatever the sample count.
std::vector<Segment> plan_segments(int cpu_a, int cpu_b, const MeasureSpec& spec) {
  std::vector<Segment> plan;
  plan.push_back({cpu_a, 1, kCold});
  if (spec.warmup > 0) plan.push_back({cpu_a, spec.warmup, kWarmup});
  const int a_share = spec.ordered ? spec.iters : spec.iters / 2;
  for (int s = 0; s < spec.samples; ++s) {
    if (a_share > 0) plan.push_back({cpu_a, a_share, s});
    if (a_share < spec.iters) plan.push_back({cpu_b, spec.iters - a_share, s});
  }
  return plan;
}

// The signalling operations of --probe. Values only grow, so a CAS that
// expects k can never be fooled by an older k (no ABA).
struct Signal {
  Probe probe;
  void send(std::atomic<u32>& flag, u32 k) const {
    switch (probe) {
      case Probe::Cas: {
        u32 expected = k - 1;
        flag.compare_exchange_strong(expected, k, std::memory_order_acq_rel);
        break;
      }
      case Probe::Exch: flag.exchange(k, std::memory_order_acq_rel); break;
      case Probe::AcqRel: flag.store(k, std::memory_order_release); break;
      case Probe::Volatile: flag.store(k, std::memory_order_relaxed); break;
    }
  }
  bool arrived(std::atomic<u32>& flag, u32 k) const {
    switch (probe) {
      case Probe::Cas: {
        // Polling with a CAS that rewrites the same value: every poll is a
        // read-modify-write, as in the GPU seed protocol.
        u32 expected = k;
        return flag.compare_exchange_strong(expected, k, std::memory_order_acq_rel);
      }
      case Probe::Exch:
      case Probe::AcqRel: return flag.load(std::memory_order_acquire) == k;
      case Probe::Volatile: return flag.load(std::memory_order_relaxed) == k;
    }
    return false;
  }
};

struct SharedState {
  FlagPair flags;
  Signal signal;
  Clock::duration budget;
  std::atomic<bool> abort{false};
  std::atomic<int> ready{0};
};

// Spins until `flag` holds k; false when the budget ran out or the partner gave up.
bool wait_for(SharedState& st, std::atomic<u32>& flag, u32 k) {
  const auto deadline = Clock::now() + st.budget;
  for (unsigned spins = 1;; ++spins) {
    if (st.signal.arrived(flag, k)) return true;
    // Reading the clock on every spin would slow the poll loop itself.
    if ((spins & 1023u) == 0) {
      if (st.abort.load(std::memory_order_relaxed)) return false;
      if (Clock::now() > deadline) {
        st.abort.store(true);
        return false;
      }
    }
  }
}

struct SideResult {
  std::vector<double> segment_ns;  // per segment this side pinged; NaN where it answered
  bool timed_out = false;
  std::exception_ptr error;
};

void run_side(int me, const std::vector<Segment>& plan, SharedState& st, SideResult& out) {
  try {
    pin_current_thread(me);
    st.ready.fetch_add(1);
    while (st.ready.load() < 2) {
    }
    u32 k = 0;
    out.segment_ns.assign(plan.size(), kNaN);
    for (std::size_t s = 0; s < plan.size(); ++s) {
      const Segment& seg = plan[s];
      const bool ping = seg.pinger == me;
      const auto t0 = Clock::now();
      for (int i = 0; i < seg.count; ++i) {
        ++k;
        if (ping) {
          st.signal.send(*st.flags.first, k);
          if (!wait_for(st, *st.flags.second, k)) {
            out.timed_out = true;
            return;
          }
        } else {
          if (!wait_for(st, *st.flags.first, k)) {
            out.timed_out = true;
            return;
          }
          st.signal.send(*st.flags.second, k);
        }
      }
      if (ping) out.segment_ns[s] = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    }
  } catch (...) {
    out.error = std::current_exception();
    st.abort.store(true);
    st.ready.fetch_add(2);  // release a partner still waiting to start
  }
}

}  // namespace

PairMeasurement run_cpu_pair(int cpu_a, int cpu_b, FlagPair flags, const MeasureSpec& spec) {
  const auto plan = plan_segments(cpu_a, cpu_b, spec);
  SharedState st{flags, Signal{spec.probe},
                 std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(spec.timeout_ms))};
  SideResult ra, rb;
  std::thread ta(run_side, cpu_a, std::cref(plan), std::ref(st), std::ref(ra));
  std::thread tb(run_side, cpu_b, std::cref(plan), std::ref(st), std::ref(rb));
  ta.join();
  tb.join();
  if (ra.error) std::rethrow_exception(ra.error);
  if (rb.error) std::rethrow_exception(rb.error);

  PairMeasurement m;
  m.a = cpu_a;
  m.b = cpu_b;
  m.timed_out = ra.timed_out || rb.timed_out;
  if (m.timed_out) return m;
  std::vector<double> sample_ns(spec.samples, 0.0);
  for (std::size_t s = 0; s < plan.size(); ++s) {
    const double ns = plan[s].pinger == cpu_a ? ra.segment_ns[s] : rb.segment_ns[s];
    if (plan[s].sample == kCold) m.cold_rtt_ns = ns;
    if (plan[s].sample >= 0) sample_ns[plan[s].sample] += ns;
  }
  for (double ns : sample_ns) m.rtt_ns.push_back(ns / spec.iters);
  return m;
}

}  // namespace cumap::cpu
