// Barriers and contention on pinned threads: one thread per participant,
// walking the same few lines a GPU block would.
#include "backends/cpu/cpu_sync.hpp"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <exception>
#include <latch>
#include <memory>
#include <optional>
#include <thread>

#include "backends/cpu/bounded_wait.hpp"
#include "backends/cpu/cpu_affinity.hpp"
#include "backends/cpu/cpu_pingpong.hpp"
#include "backends/cpu/probe_ops.hpp"

namespace cumap::cpu {
namespace {

using Clock = std::chrono::steady_clock;
using u32 = std::uint32_t;
using Word = std::atomic<u32>;

// What the threads of one case share.
struct CaseState : Halt {
  CaseState(const SyncCase& c, const SyncWords& w, Probe p, double timeout_ms, const std::function<bool()>& s)
      : Halt(timeout_ms, s), sync(c), words(w), probe(p), platform(static_cast<std::ptrdiff_t>(c.participants.size())) {
    // Two-level: each participant's group size and whether it leads, worked out once, not per episode.
    for (std::size_t i = 0; i < c.group_of.size(); ++i) {
      group_size.push_back(static_cast<u32>(std::count(c.group_of.begin(), c.group_of.end(), c.group_of[i])));
      leads.push_back(std::find(c.group_of.begin(), c.group_of.end(), c.group_of[i]) - c.group_of.begin() ==
                      static_cast<std::ptrdiff_t>(i));
    }
  }
  const SyncCase& sync;
  const SyncWords& words;
  Probe probe;  // how participants poll and signal the words, as the ping-pong its flags (probe_ops.hpp)
  std::barrier<> platform;           // BarrierImpl::Platform only
  std::vector<u32> group_size;       // two-level, per participant
  std::vector<bool> leads;
  std::atomic<bool> timed_out{false};
};

struct ParticipantResult {
  std::vector<Clock::time_point> leave;  // participant 0 of a barrier: start, then each episode's end
  std::vector<double> batch_ns;          // contention: per timed batch, ns per operation
  Clock::time_point first{}, last{};     // contention: the timed batches' start and end
  std::exception_ptr error;
};

// Spins until `word` reaches `target` (words only grow: "at least" is the
// test); false when the budget ran out, another participant gave up or the
// stop request came.
bool wait_to_reach(CaseState& st, Word& word, u32 target) {
  const WaitEnd end = spin_until(st, true, [&] { return poll(st.probe, word, target) >= target; });
  if (end == WaitEnd::TimedOut) st.timed_out.store(true);
  return end == WaitEnd::Arrived;
}

// One episode e (from 1) of a flag barrier of k on (counter, release): the
// last to arrive releases the others.
bool flag_barrier(CaseState& st, Word& counter, Word& release, u32 k, u32 e) {
  if (counter.fetch_add(1, std::memory_order_acq_rel) == k * e - 1) {
    signal(st.probe, release, e);
    return true;
  }
  return wait_to_reach(st, release, e);
}

// One episode of the case's barrier for participant p.
bool episode(CaseState& st, std::size_t p, u32 e) {
  const SyncCase& c = st.sync;
  const SyncWords& w = st.words;
  const auto k = static_cast<u32>(c.participants.size());
  switch (c.impl) {
    case BarrierImpl::Counter:
      w.counter->fetch_add(1, std::memory_order_acq_rel);
      return wait_to_reach(st, *w.counter, k * e);
    case BarrierImpl::Flag: return flag_barrier(st, *w.counter, *w.release, k, e);
    case BarrierImpl::TwoLevel: {
      const auto g = static_cast<std::size_t>(c.group_of[p]);
      w.group_counter[g]->fetch_add(1, std::memory_order_acq_rel);
      if (!st.leads[p]) return wait_to_reach(st, *w.group_release[g], e);
      if (!wait_to_reach(st, *w.group_counter[g], st.group_size[p] * e)) return false;
      if (!flag_barrier(st, *w.counter, *w.release, static_cast<u32>(c.group_counter.size()), e)) return false;
      signal(st.probe, *w.group_release[g], e);
      return true;
    }
    case BarrierImpl::Platform:
      // std::barrier has no timed wait: a participant that leaves drops out,
      // which completes the phase the others wait in.
      if (st.abort.load(std::memory_order_relaxed)) {
        st.platform.arrive_and_drop();
        return false;
      }
      st.platform.arrive_and_wait();
      return true;
  }
  return false;
}

// Leaves the case early: a platform participant must drop out of the std::barrier.
void give_up(CaseState& st) {
  st.abort.store(true);
  if (!st.sync.contention && st.sync.impl == BarrierImpl::Platform) st.platform.arrive_and_drop();
}

// The measured loop of a barrier: warm-up and timed episodes back to back,
// participant 0 noting when it leaves each.
void run_barrier(CaseState& st, std::size_t p, ParticipantResult& out) {
  const int total = st.sync.warmup + st.sync.episodes;
  if (p == 0) {
    out.leave.reserve(static_cast<std::size_t>(total) + 1);
    out.leave.push_back(Clock::now());
  }
  for (int e = 1; e <= total; ++e) {
    // Short waits never reach wait_to_reach's stop check: participant 0 asks too.
    if (p == 0 && e % 64 == 0 && st.stop_requested()) return give_up(st);
    if (!episode(st, p, static_cast<u32>(e))) return;
    if (p == 0) out.leave.push_back(Clock::now());
  }
}

// One participant of contention: batches of dependent operations on the
// counter, each depending on the value the previous one returned.
void run_contention(CaseState& st, std::latch& timed, ParticipantResult& out) {
  const SyncCase& c = st.sync;
  Word& w = *st.words.counter;
  u32 last = 0;
  const auto batch = [&] {
    for (int i = 0; i < c.ops_per_batch; ++i) {
      if (c.op == ContentionOp::Add) {
        last = w.fetch_add(1, std::memory_order_acq_rel);
      } else {
        u32 expected = last;
        last = w.compare_exchange_strong(expected, expected + 1, std::memory_order_acq_rel) ? expected + 1 : expected;
      }
    }
  };
  for (int b = 0; b < c.warmup && !st.abort.load(std::memory_order_relaxed) && !st.stop_requested(); ++b) batch();
  timed.arrive_and_wait();  // every participant contends during the timed batches
  out.first = Clock::now();
  for (int b = 0; b < c.episodes; ++b) {
    if (st.abort.load(std::memory_order_relaxed) || st.stop_requested()) return;
    const auto t0 = Clock::now();
    batch();
    out.batch_ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / c.ops_per_batch);
  }
  out.last = Clock::now();
}

void run_participant(CaseState& st, std::size_t p, std::latch& start, std::latch& timed, ParticipantResult& out) {
  try {
    pin_current_thread(st.sync.participants[p].unit);
  } catch (...) {
    out.error = std::current_exception();
    give_up(st);
    start.count_down();  // the case must not wait for this thread
    if (st.sync.contention) timed.count_down();
    return;
  }
  start.arrive_and_wait();
  if (st.sync.contention) return run_contention(st, timed, out);
  run_barrier(st, p, out);
}

// The timed episodes' leave-to-leave times, or the contention batches'
// per-operation times participant after participant, and the aggregate rate.
SyncMeasurement measurement(const CaseState& st, const std::vector<ParticipantResult>& results) {
  const SyncCase& c = st.sync;
  SyncMeasurement m;
  m.tag = c.tag;
  m.timed_out = st.timed_out.load();
  if (m.timed_out) return m;
  if (!c.contention) {
    const std::vector<Clock::time_point>& leave = results.front().leave;
    for (std::size_t e = static_cast<std::size_t>(c.warmup) + 1; e < leave.size(); ++e)
      m.ns.push_back(std::chrono::duration<double, std::nano>(leave[e] - leave[e - 1]).count());
    return m;
  }
  Clock::time_point first = results.front().first, last = results.front().last;
  for (const ParticipantResult& r : results) {
    m.ns.insert(m.ns.end(), r.batch_ns.begin(), r.batch_ns.end());
    first = std::min(first, r.first);
    last = std::max(last, r.last);
  }
  const double us = std::chrono::duration<double, std::micro>(last - first).count();
  const double ops = static_cast<double>(m.ns.size()) * c.ops_per_batch;
  m.ops_per_us = us > 0 ? ops / us : 0.0;
  return m;
}

}  // namespace

SyncTiming run_cpu_sync_case(const SyncCase& c, const SyncWords& words, Probe probe, double timeout_ms,
                             const std::function<bool()>& stop) {
  CaseState st(c, words, probe, timeout_ms, stop);
  const auto k = static_cast<std::ptrdiff_t>(c.participants.size());
  std::latch start(k), timed(k);
  std::vector<ParticipantResult> results(c.participants.size());
  {
    std::vector<std::jthread> threads;
    for (std::size_t p = 0; p < c.participants.size(); ++p)
      threads.emplace_back(run_participant, std::ref(st), p, std::ref(start), std::ref(timed), std::ref(results[p]));
  }  // jthreads join here: the next case's threads never overlap these
  for (const ParticipantResult& r : results)
    if (r.error) std::rethrow_exception(r.error);
  SyncTiming t;
  t.stopped = st.stopped.load();
  if (!t.stopped) t.measurement = measurement(st, results);
  t.measurement.tag = c.tag;
  return t;
}

namespace {

class CpuSyncSession final : public SyncSession {
 public:
  CpuSyncSession(const SyncPlan& plan, const FlagMemory& memory) : plan_(plan), memory_(memory) {}

  std::optional<SyncMeasurement> measure_case(std::size_t index) override {
    const SyncCase& c = plan_.cases.at(index);
    SyncWords words{&memory_.word(c.counter), &memory_.word(c.release), {}, {}};
    for (std::uint64_t w : c.group_counter) words.group_counter.push_back(&memory_.word(w));
    for (std::uint64_t w : c.group_release) words.group_release.push_back(&memory_.word(w));
    const auto reset = [&] {
      for (auto* w : {words.counter, words.release}) w->store(0);
      for (auto* w : words.group_counter) w->store(0);
      for (auto* w : words.group_release) w->store(0);
    };
    const auto t0 = Clock::now();
    reset();
    SyncTiming t = run_cpu_sync_case(c, words, plan_.probe, plan_.timeout_ms, plan_.stop);
    reset();
    device_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
    if (t.stopped) return std::nullopt;
    return std::move(t.measurement);
  }

  double device_seconds() const override { return device_seconds_; }
  double clock_hz() const override { return 0.0; }  // no portable cycle counter of the core clock

 private:
  const SyncPlan& plan_;
  const FlagMemory& memory_;
  double device_seconds_ = 0.0;
};

}  // namespace

std::unique_ptr<SyncSession> open_cpu_sync_session(const SyncPlan& plan, const FlagMemory& memory) {
  return std::make_unique<CpuSyncSession>(plan, memory);
}

}  // namespace cumap::cpu
