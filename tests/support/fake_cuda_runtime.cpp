#include "fake_cuda_runtime.hpp"

#include <iterator>
#include <stdexcept>

namespace cumap::testing {

using namespace cuda;

FakeCudaRuntime::FakeCudaRuntime(FakeCudaConfig config)
    : config_(std::move(config)), next_(0x7f0000001000 + (static_cast<DeviceAddress>(config_.ordinal) << 36)) {
  // The runtime's own words, apart from what the backend allocates (and counts).
  control_ = next_;
  next_ += 0x1000;
  facts_.ordinal = config_.ordinal;
  facts_.name = config_.name;
  facts_.pci_bus_id = config_.pci_bus_id;
  facts_.sm_count = static_cast<int>(config_.sm_ids.size());
  facts_.cc_major = config_.cc_major;
  facts_.l2_bytes = config_.l2_bytes;
  facts_.persisting_l2_max_bytes = config_.persisting_l2_max_bytes;
  facts_.access_policy_max_window_bytes = 128 << 20;
  facts_.max_sm_clock_hz = config_.max_sm_clock_hz;
  facts_.cooperative_launch = true;
  facts_.runtime_version = 13000;
  facts_.driver_api_version = 13000;
}

DeviceAddress FakeCudaRuntime::allocate(std::size_t bytes) {
  const DeviceAddress a = next_;
  next_ += bytes + 0x1100;  // keep the next one unaligned too
  live_[a] = bytes;
  ++allocations;
  return a;
}

void FakeCudaRuntime::check_inside(DeviceAddress address, std::size_t bytes) const {
  auto it = live_.upper_bound(address);
  if (it == live_.begin()) throw std::logic_error("access outside every live allocation");
  --it;
  if (address + bytes > it->first + it->second) throw std::logic_error("access past the end of an allocation");
}

void FakeCudaRuntime::zero(DeviceAddress memory, std::size_t bytes) {
  check_inside(memory, bytes);
  ++zeroes;
}

std::array<std::uint64_t, 4> FakeCudaRuntime::calibrate_clock() {
  ++calibrations;
  const std::uint64_t ns = 20'000'000;
  return {1000, 5000, 1000 + static_cast<std::uint64_t>(ns * config_.calibration_cycles_per_ns), 5000 + ns};
}

std::array<std::uint64_t, 4> FakeCudaRuntime::marks_for(double ms) const {
  const auto ns = static_cast<std::uint64_t>(ms * 1e6);
  return {2000, 9000, 2000 + static_cast<std::uint64_t>(static_cast<double>(ns) * config_.run_cycles_per_ns), 9000 + ns};
}

void FakeCudaRuntime::prepare_pingpong(const PingPongLaunch& launch) {
  if (prepared_) throw std::logic_error("prepare_pingpong twice without finish_pingpong");
  if (launch.arenas.size() != launch.controls.size() || launch.self < 0 ||
      static_cast<std::size_t>(launch.self) >= launch.arenas.size())
    throw std::logic_error("a launch group needs an arena and control words per member, and self among them");
  if (launch.controls[static_cast<std::size_t>(launch.self)] != control_)
    throw std::logic_error("this member's control words are not its own");
  prepared_ = launch;
}

void FakeCudaRuntime::start_pingpong() {
  if (!prepared_) throw std::logic_error("start_pingpong without prepare_pingpong");
  ++started;
}

PingPongOutcome FakeCudaRuntime::finish_pingpong() {
  if (!prepared_) throw std::logic_error("finish_pingpong without prepare_pingpong");
  const PingPongLaunch launch = std::move(*prepared_);
  prepared_.reset();
  PingPongOutcome out;
  out.block_sm = config_.sm_ids;
  const LaunchPairs& lp = launch.pairs;
  if (lp.pairs.empty()) {
    ++census_launches;
    return out;
  }
  pingpong_launches.push_back(launch);
  if (lp.round_starts.empty() || lp.round_starts.back() != lp.pairs.size())
    throw std::logic_error("round_starts does not end at the pair count");
  if (launch.settings.flush_l2) check_inside(launch.flush_buffer, launch.flush_words * 4);
  if (launch.group_blocks < static_cast<unsigned>(facts_.sm_count)) throw std::logic_error("group_blocks below this GPU's own blocks");
  const protocol::Counts& c = launch.settings.counts;
  const int self = launch.self;
  for (std::size_t i = 0; i < lp.pairs.size(); ++i) {
    const DevicePair& p = lp.pairs[i];
    if (lp.round_starts.at(p.round) > i || lp.round_starts.at(p.round + 1) <= i)
      throw std::logic_error("a pair outside its round's range");
    // Flags in this GPU's arena are checked here; a peer's by the peer.
    if (p.flag_gpu == self) {
      check_inside(launch.arenas.at(static_cast<std::size_t>(self)) + 4ull * p.first_word, 4);
      check_inside(launch.arenas.at(static_cast<std::size_t>(self)) + 4ull * p.second_word, 4);
    }
    // The sides this GPU's SMs play, as a real member records them.
    const bool plays_a = p.a_gpu == self, plays_b = p.b_gpu == self;
    const auto mine = [&](int sm, bool plays) { return plays && (launch.settings.silent_sm == sm || config_.timeout_sm == sm); };
    const bool times_out = mine(p.a, plays_a) || mine(p.b, plays_b);
    out.records.status.push_back(times_out ? kPingTimedOut : kPairOk);
    // The pair's round trips in protocol order, as the kernel walks them: the
    // pinger of a segment records its cycles, on its own GPU's records.
    std::uint64_t cold = 0;
    std::vector<std::uint64_t> samples(static_cast<std::size_t>(c.samples), 0);
    for (int k = 0; k < protocol::segment_count(c); ++k) {
      const protocol::Segment seg = protocol::segment(c, k);
      if (!(seg.a_pings ? plays_a : plays_b)) continue;
      const std::uint64_t per_trip = ping_cycles(seg.a_pings ? p.a : p.b, seg.a_pings);
      if (seg.sample == protocol::kColdSample)
        cold = config_.ping_cycles_by_sm.empty() ? config_.cold_cycles : per_trip;
      else if (seg.sample >= 0)
        samples[static_cast<std::size_t>(seg.sample)] +=
            per_trip * static_cast<std::uint64_t>(protocol::timed_round_trips(seg));
    }
    out.records.cold_cycles.push_back(times_out ? 0 : cold);
    for (std::uint64_t cycles : samples) out.records.sample_cycles.push_back(times_out ? 0 : cycles);
  }
  const double ms = config_.round_ms * static_cast<double>(lp.round_starts.size() - 1);
  out.elapsed_ms = ms;
  out.clock_marks = marks_for(ms);
  if (config_.abort_launch) out.abort_code = *config_.abort_launch;
  return out;
}

std::uint64_t FakeCudaRuntime::ping_cycles(int sm, bool a_pings) const {
  if (config_.ping_cycles_by_sm.empty()) return a_pings ? config_.a_ping_cycles : config_.b_ping_cycles;
  const auto it = config_.ping_cycles_by_sm.find(sm);
  if (it == config_.ping_cycles_by_sm.end()) throw std::logic_error("ping_cycles_by_sm has no cycles for this SM");
  return it->second;
}

MemoryFacts FakeCudaRuntime::memory_facts(DeviceAddress address) {
  const auto within = [address](const std::vector<std::pair<DeviceAddress, std::size_t>>& ranges) {
    for (const auto& [start, bytes] : ranges)
      if (address >= start && address < start + bytes) return true;
    return false;
  };
  if (within(config_.managed)) return {MemoryKind::Managed, config_.ordinal};
  if (within(config_.host)) return {MemoryKind::Host, -1};
  const auto it = live_.upper_bound(address);
  if (it != live_.begin() && address < std::prev(it)->first + std::prev(it)->second)
    return {MemoryKind::Device, config_.ordinal};
  return {};
}

PeerAccess FakeCudaRuntime::open_peer_access(int peer_ordinal) {
  peers_opened.push_back(peer_ordinal);
  return {config_.peer_access, config_.peer_access && config_.peer_atomics, 0};
}

double FakeCudaRuntime::cycles_to_line(int sm, std::uint32_t word) const {
  const bool near = (word * 4 / protocol::kLineBytes) % 2 == static_cast<std::uint32_t>(sm) % 2;
  return near ? config_.near_cycles : config_.far_cycles;
}

LineProbeOutcome FakeCudaRuntime::run_line_probe(const LineProbeLaunch& launch) {
  probe_launches.push_back(launch);
  LineProbeOutcome out;
  out.block_sm = config_.sm_ids;
  for (int sm : launch.turn_sms) {
    for (std::uint32_t word : launch.line_words) {
      // Another GPU's lines are that GPU's memory, which this fake does not hold.
      if (!launch.remote) check_inside(launch.arena + 4ull * word, 4);
      // Repeats scatter around the latency; the median is the middle one.
      for (int r = 0; r < launch.repeats; ++r) {
        const double jitter = (r % 3 == 0) ? 1.0 : (r % 3 == 1 ? 1.5 : 0.9);
        out.cycles.push_back(static_cast<std::uint64_t>(cycles_to_line(sm, word) * jitter * launch.chain));
      }
    }
  }
  const double ms = 10.0 * static_cast<double>(launch.turn_sms.size());
  out.elapsed_ms = ms;
  out.clock_marks = marks_for(ms);
  return out;
}

void FakeCudaRuntime::prepare_sync(const SyncLaunch& launch) {
  if (launch.arenas.empty() || launch.arenas.size() != launch.controls.size() || launch.self < 0 ||
      static_cast<std::size_t>(launch.self) >= launch.arenas.size())
    throw std::logic_error("a sync launch group needs an arena and control words per member, and self among them");
  if (launch.controls[static_cast<std::size_t>(launch.self)] != control_)
    throw std::logic_error("this member's control words are not its own");
  if (launch.arenas.size() > 1 && launch.settings.system_scope == 0)
    throw std::logic_error("a sync case across GPUs must run at system scope");
  // Words in this GPU's arena are checked here; a peer's by the peer.
  const DeviceAddress own = launch.own_arena();
  for (std::uint32_t w : launch.zero_words) check_inside(own + 4ull * w, 4);
  if (launch.counter_member == launch.self)
    for (std::uint32_t w : {launch.counter_word, launch.release_word}) check_inside(own + 4ull * w, 4);
  for (std::size_t p = 0; p < launch.roles.size(); ++p)
    if (launch.participant_sms.at(p) >= 0)
      for (std::uint32_t w : {launch.roles[p].group_counter_word, launch.roles[p].group_release_word})
        check_inside(own + 4ull * w, 4);
  for (const GroupWord& w : launch.exchange)
    if (w.member == launch.self) check_inside(own + 4ull * w.word, 4);
  sync_launches.push_back(launch);
  prepared_sync_ = launch;
  sync_running_ = false;
}

void FakeCudaRuntime::start_sync() {
  if (!prepared_sync_ || sync_running_) throw std::logic_error("start_sync without prepare_sync");
  sync_running_ = true;
  ++sync_started;
}

SyncOutcome FakeCudaRuntime::finish_sync() {
  if (!prepared_sync_ || !sync_running_) throw std::logic_error("finish_sync without start_sync");
  const SyncLaunch launch = std::move(*prepared_sync_);
  prepared_sync_.reset();
  sync_running_ = false;
  const SyncSettings& s = launch.settings;
  SyncOutcome out;
  out.block_sm = config_.sm_ids;
  out.elapsed_ms = config_.sync_case_ms;
  out.clock_marks = marks_for(config_.sync_case_ms);
  if (config_.abort_launch) out.abort_code = *config_.abort_launch;
  for (int sm : launch.participant_sms)
    if (sm >= 0 && (sm == s.silent_sm || config_.timeout_sm == sm)) out.timed_out = true;
  if (out.timed_out) return out;
  // As the kernel's buffers: sized for every participant, written by this GPU's.
  const std::size_t k = launch.participant_sms.size();
  out.leave_cycles.assign(static_cast<std::size_t>(s.warmup + s.episodes) + 1, 0);
  if (!launch.participant_sms.empty() && launch.participant_sms.front() >= 0) {
    std::uint64_t leave = 5000;
    out.leave_cycles[0] = leave;
    for (int e = 1; e <= s.warmup + s.episodes; ++e)
      out.leave_cycles[static_cast<std::size_t>(e)] = leave += config_.sync_episode_cycles + e;
  }
  if (is_contention(s.kind)) {
    const auto episodes = static_cast<std::size_t>(s.episodes);
    out.batch_cycles.assign(k * episodes, 0);
    out.span_ns.assign(2 * k, 0);
    for (std::size_t p = 0; p < k; ++p) {
      if (launch.participant_sms[p] < 0) continue;
      for (std::size_t b = 0; b < episodes; ++b)
        out.batch_cycles[p * episodes + b] = config_.sync_op_cycles * static_cast<std::uint64_t>(s.ops_per_batch);
      out.span_ns[2 * p] = config_.globaltimer_offset_ns + p * 100;
      out.span_ns[2 * p + 1] = config_.globaltimer_offset_ns + p * 100 + config_.sync_span_ns;
    }
  }
  return out;
}

std::size_t FakeCudaRuntime::set_persisting_window(DeviceAddress base, std::size_t bytes) {
  check_inside(base, bytes);
  window_live = true;
  window_bytes = std::min(bytes, config_.persisting_l2_max_bytes);
  return window_bytes;
}

Topology FakeCudaRuntime::discover_gpcs(const std::vector<int>& sm_ids) {
  Topology t;
  (void)sm_ids;
  return t;
}

CoherenceReport FakeCudaRuntime::check_coherence(int reader, int writer, double window_ms, double cycles_per_ns) {
  (void)window_ms, (void)cycles_per_ns;
  return {reader, writer, {}};
}

Measurements FakeCudaRuntime::measure_dsm(const MeasurementPlan& plan, const std::vector<int>& sm_ids,
                                          double cycles_per_ns, const ProgressFn& progress) {
  (void)plan, (void)sm_ids, (void)cycles_per_ns, (void)progress;
  ++dsm_calls;
  return {};
}

}  // namespace cumap::testing
