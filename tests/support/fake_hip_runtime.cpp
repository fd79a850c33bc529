#include "fake_hip_runtime.hpp"

#include <bit>
#include <stdexcept>

namespace cumap::testing {

HipDeviceProperties FakeHipRuntime::properties(int device) {
  if (device != selected_) throw std::logic_error("properties() of a device not selected");
  HipDeviceProperties p;
  p.name = config_.name;
  p.gcn_arch_name = config_.arch;
  p.cu_count = config_.cu_count;
  p.shader_clock_hz = config_.shader_clock_hz;
  p.wall_clock_hz = config_.wall_clock_hz;
  p.wall_clock_rate_source = "fake";
  p.l2_cache_bytes = config_.l2_bytes;
  p.runtime_version = "5.2.21153";
  p.driver_version = "50221153";
  p.cooperative_launch = config_.cooperative_launch;
  return p;
}

StreamCreation FakeHipRuntime::create_cu_masked_stream(const std::vector<std::uint32_t>& mask) {
  if (mask.size() != static_cast<std::size_t>((config_.cu_count + 31) / 32)) {
    return {StreamCreateStatus::Failed, 0, "invalid argument (mask has the wrong number of words)"};
  }
  if (config_.rejected_cu) {
    const int cu = *config_.rejected_cu;
    if (mask[cu / 32] & (1u << (cu % 32))) {
      return {StreamCreateStatus::Failed, 0, "invalid argument (hipErrorInvalidValue)"};
    }
  }
  if (config_.queue_limit && streams_.size() >= *config_.queue_limit) {
    return {StreamCreateStatus::OutOfQueues, 0, "out of memory (hipErrorOutOfMemory)"};
  }
  const HipStream handle = next_handle_++;
  streams_[handle] = mask;
  ++streams_created;
  max_live_streams = std::max(max_live_streams, streams_.size());
  return {StreamCreateStatus::Created, handle, {}};
}

void FakeHipRuntime::destroy_stream(HipStream stream) {
  if (streams_.erase(stream) == 0) throw std::logic_error("destroying a stream that is not alive");
}

HipBuffer FakeHipRuntime::allocate_flags(std::size_t bytes) {
  const HipBuffer b = 0x100000 * ++allocations;  // never reused: a moved arena is visible
  buffers_[b] = bytes;
  return b;
}

void FakeHipRuntime::free_flags(HipBuffer buffer) { buffers_.erase(buffer); }

namespace {
bool within(HipBuffer address, const std::vector<std::pair<HipBuffer, std::size_t>>& ranges) {
  for (const auto& [start, bytes] : ranges)
    if (address >= start && address < start + bytes) return true;
  return false;
}
}  // namespace

MemoryFacts FakeHipRuntime::memory_facts(HipBuffer address) {
  if (within(address, config_.managed)) return {MemoryKind::Managed, selected_};
  if (within(address, config_.host)) return {MemoryKind::Host, -1};
  if (within(address, config_.program_memory)) return {MemoryKind::Device, selected_};
  for (const auto& [start, bytes] : buffers_)
    if (address >= start && address < start + bytes) return {MemoryKind::Device, selected_};
  return {};
}

int FakeHipRuntime::cu_of(HipStream stream) const {
  auto it = streams_.find(stream);
  if (it == streams_.end()) throw std::logic_error("launch on a stream that is not alive");
  for (std::size_t w = 0; w < it->second.size(); ++w) {
    if (it->second[w] != 0) return static_cast<int>(w * 32 + std::countr_zero(it->second[w]));
  }
  throw std::logic_error("stream with an empty CU mask");
}

bool FakeHipRuntime::time_sliced(HipStream stream) const {
  if (!config_.hw_queues || streams_.size() <= *config_.hw_queues) return false;
  std::size_t rank = 0;
  for (const auto& [handle, mask] : streams_) {
    if (handle == stream) return rank >= *config_.hw_queues;
    ++rank;
  }
  return false;
}

HwReading FakeHipRuntime::hw_reading_for_bit(int bit) const {
  const int xcd = bit % config_.xcds;
  const int cu = bit / config_.xcds;  // the CU within its XCD
  HwReading r;
  r.xcc_id = config_.arch.starts_with("gfx94") ? static_cast<std::uint32_t>(xcd) : 0u;
  if (config_.arch.starts_with("gfx9")) {
    // CUs spread round-robin over the shader engines, as the driver maps masks.
    const auto se = static_cast<std::uint32_t>(cu % config_.shader_engines);
    const auto slot = static_cast<std::uint32_t>(cu / config_.shader_engines);
    r.hw_id = (se << 13) | ((slot % 16) << 8) | (((slot / 16) & 1u) << 12);
    return r;
  }
  const int wgp = cu / 2;
  const auto se = static_cast<std::uint32_t>(wgp % config_.shader_engines);
  const auto rest = static_cast<std::uint32_t>(wgp / config_.shader_engines);
  r.hw_id = (se << 18) | ((rest & 1u) << 16) | ((rest >> 1) << 10) | (static_cast<std::uint32_t>(cu % 2) << 8);
  return r;
}

HwReading FakeHipRuntime::reported_reading(int cu) {
  if (auto it = config_.alias_cu.find(cu); it != config_.alias_cu.end()) cu = it->second;
  if (config_.drifting_cu && cu == *config_.drifting_cu && (drift_launches_++ % 2 == 1)) {
    cu = (cu + 1) % config_.cu_count;
  }
  return hw_reading_for_bit(cu);
}

// The pair's counters as the kernels would write them, walking the protocol.
PingPongResult FakeHipRuntime::simulate(const PingPongLaunch& launch, int a, int b) const {
  PingPongResult r;
  r.both_started = true;
  const protocol::Counts& c = launch.counts;
  int samples = c.samples;
  if (config_.timeout_cu && (a == *config_.timeout_cu || b == *config_.timeout_cu)) {
    r.timed_out = true;
    samples = std::min(samples, 1);
  }
  r.a_pinged = {std::vector<std::uint64_t>(samples, 0), std::vector<std::uint64_t>(samples, 0)};
  r.b_pinged = r.a_pinged;
  std::uint64_t total = 0;
  const bool by_cu = !config_.ping_ticks_by_cu.empty();
  for (int i = 0; i < protocol::segment_count(c); ++i) {
    const protocol::Segment seg = protocol::segment(c, i);
    const auto n = static_cast<std::uint64_t>(protocol::timed_round_trips(seg));
    // One round trip of this segment, in wall ticks and shader cycles.
    std::uint64_t trip_ticks = seg.a_pings ? config_.a_ping_ticks : config_.b_ping_ticks;
    std::uint64_t trip_cycles = seg.a_pings ? config_.a_ping_cycles : config_.b_ping_cycles;
    if (by_cu) {
      const auto it = config_.ping_ticks_by_cu.find(seg.a_pings ? a : b);
      if (it == config_.ping_ticks_by_cu.end()) throw std::logic_error("ping_ticks_by_cu has no ticks for this CU");
      trip_ticks = it->second;
      trip_cycles = static_cast<std::uint64_t>(static_cast<double>(it->second) * config_.shader_clock_hz /
                                               config_.wall_clock_hz);
    }
    if (seg.sample == protocol::kColdSample) r.cold_ticks = by_cu ? trip_ticks : config_.cold_ticks;
    if (seg.sample < 0 || seg.sample >= samples) continue;
    PingerHalves& h = seg.a_pings ? r.a_pinged : r.b_pinged;
    const std::uint64_t ticks = trip_ticks * n;
    h.ticks[seg.sample] += ticks;
    h.cycles[seg.sample] += trip_cycles * n;
    total += ticks;
  }
  r.event_ms = static_cast<double>(total + r.cold_ticks) / config_.wall_clock_hz * 1e3 * config_.event_ms_factor;
  return r;
}

std::vector<PingPongResult> FakeHipRuntime::run_pairs(const std::vector<PingPongLaunch>& launches_in) {
  ++run_pairs_calls;
  max_pairs_per_call = std::max(max_pairs_per_call, launches_in.size());
  std::set<HipStream> busy_streams;
  std::set<std::uint64_t> busy_words;
  std::vector<PingPongResult> results;
  for (const PingPongLaunch& launch : launches_in) {
    // Two kernels on one stream would run one after the other: the pair would hang.
    if (!busy_streams.insert(launch.a_stream).second || !busy_streams.insert(launch.b_stream).second)
      throw std::logic_error("two pairs of one call share a stream");
    if (!busy_words.insert(launch.first_offset_bytes).second || !busy_words.insert(launch.second_offset_bytes).second)
      throw std::logic_error("two pairs of one call share a flag word");
    auto buffer = buffers_.find(launch.flags);
    if (buffer == buffers_.end()) throw std::logic_error("launch on freed flags");
    if (std::max(launch.first_offset_bytes, launch.second_offset_bytes) + 4 > buffer->second)
      throw std::logic_error("flag word outside the allocation");
    const int a = cu_of(launch.a_stream);
    const int b = cu_of(launch.b_stream);
    launches.push_back(Launch{a, b, launch, run_pairs_calls - 1});
    PingPongResult r = simulate(launch, a, b);
    if (time_sliced(launch.a_stream) || time_sliced(launch.b_stream)) {
      ++time_sliced_pairs;
      if (config_.time_sliced_cold_ticks) {
        r.cold_ticks = *config_.time_sliced_cold_ticks;
      } else {
        r = PingPongResult{};
        r.timed_out = true;
        r.both_started = true;
      }
    }
    r.a_hw = reported_reading(a);
    r.b_hw = reported_reading(b);
    results.push_back(std::move(r));
  }
  return results;
}

LineProbeResult FakeHipRuntime::probe_lines(const LineProbeLaunch& launch) {
  const int cu = cu_of(launch.stream);
  if (buffers_.count(launch.flags) == 0 && !within(launch.flags, config_.program_memory))
    throw std::logic_error("probe on memory that is neither live flags nor the program's");
  LineProbeResult r;
  for (std::uint64_t offset : launch.line_offsets) {
    const bool near = ((launch.flags + offset) / protocol::kLineBytes) % 2 == static_cast<std::uint64_t>(cu % 2);
    const std::uint64_t per_atomic = near ? config_.near_line_ticks : config_.far_line_ticks;
    for (int rep = 0; rep < launch.repeats; ++rep) {
      // Later repeats a little slower: the median must pick the middle one.
      const std::uint64_t ticks = per_atomic * static_cast<std::uint64_t>(launch.chain) + static_cast<std::uint64_t>(rep);
      r.ticks.push_back(ticks);
      r.cycles.push_back(ticks * 17);
    }
  }
  return r;
}

HipSyncResult FakeHipRuntime::run_sync(const HipSyncLaunch& launch) {
  auto buffer = buffers_.find(launch.flags);
  if (buffer == buffers_.end()) throw std::logic_error("sync launch on freed flags");
  for (std::uint64_t offset : launch.zero_offsets)
    if (offset + 4 > buffer->second) throw std::logic_error("sync word outside the allocation");
  const bool platform = launch.kind == HipSyncKind::Platform;
  if (platform != launch.streams.empty() || (platform && launch.platform_blocks < 1))
    throw std::logic_error("the platform barrier is a cooperative launch, the others kernels on streams");
  if (std::set<HipStream>(launch.streams.begin(), launch.streams.end()).size() != launch.streams.size())
    throw std::logic_error("two participants share a stream: they would run one after the other");
  SyncRun run{{}, launch};
  HipSyncResult r;
  r.all_started = true;
  for (HipStream s : launch.streams) {
    run.cus.push_back(cu_of(s));
    r.hw.push_back(reported_reading(run.cus.back()));
    if (config_.timeout_cu == run.cus.back()) r.timed_out = true;
  }
  sync_runs.push_back(run);
  const double cycles_per_tick = config_.shader_clock_hz / config_.wall_clock_hz;
  const auto cycles = [&](std::uint64_t ticks) {
    return static_cast<std::uint64_t>(static_cast<double>(ticks) * cycles_per_tick);
  };
  std::uint64_t leave = 1000;
  r.leave_ticks.push_back(leave);
  r.leave_cycles.push_back(cycles(leave));
  for (int e = 1; e <= launch.warmup + launch.episodes; ++e) {
    leave += config_.sync_episode_ticks + static_cast<std::uint64_t>(e);
    r.leave_ticks.push_back(leave);
    r.leave_cycles.push_back(cycles(leave));
  }
  const bool contention = launch.kind == HipSyncKind::ContentionAdd || launch.kind == HipSyncKind::ContentionCas;
  const std::uint64_t batch = config_.sync_op_ticks * static_cast<std::uint64_t>(launch.ops_per_batch);
  for (std::size_t p = 0; contention && p < launch.streams.size(); ++p) {
    for (int b = 0; b < launch.episodes; ++b) {
      r.batch_ticks.push_back(batch);
      r.batch_cycles.push_back(cycles(batch));
    }
    r.span_ticks.push_back(1000 + 10 * p);
    r.span_ticks.push_back(1000 + 10 * p + batch * static_cast<std::uint64_t>(launch.episodes));
  }
  r.event_ms = static_cast<double>(leave) / config_.wall_clock_hz * 1e3;
  if (r.timed_out) {
    r.leave_ticks.clear();
    r.leave_cycles.clear();
  }
  return r;
}

HwReading FakeHipRuntime::read_hw_id(HipStream stream) { return reported_reading(cu_of(stream)); }

}  // namespace cumap::testing
