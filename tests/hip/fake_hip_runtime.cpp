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
  static_cast<void>(bytes);
  const HipBuffer b = 0x1000 * (buffers_.size() + 1);
  buffers_.insert(b);
  return b;
}

void FakeHipRuntime::free_flags(HipBuffer buffer) { buffers_.erase(buffer); }

int FakeHipRuntime::cu_of(HipStream stream) const {
  auto it = streams_.find(stream);
  if (it == streams_.end()) throw std::logic_error("launch on a stream that is not alive");
  for (std::size_t w = 0; w < it->second.size(); ++w) {
    if (it->second[w] != 0) return static_cast<int>(w * 32 + std::countr_zero(it->second[w]));
  }
  throw std::logic_error("stream with an empty CU mask");
}

std::uint32_t FakeHipRuntime::hw_id_for_cu(int cu) const {
  const bool gfx9 = config_.arch.starts_with("gfx9");
  if (gfx9) {
    // CUs spread round-robin over the shader engines, as the driver maps masks.
    const auto se = static_cast<std::uint32_t>(cu % config_.shader_engines);
    const auto slot = static_cast<std::uint32_t>(cu / config_.shader_engines);
    return (se << 13) | ((slot % 16) << 8) | (((slot / 16) & 1u) << 12);
  }
  const int wgp = cu / 2;
  const auto se = static_cast<std::uint32_t>(wgp % config_.shader_engines);
  const auto rest = static_cast<std::uint32_t>(wgp / config_.shader_engines);
  return (se << 18) | ((rest & 1u) << 16) | ((rest >> 1) << 10) | (static_cast<std::uint32_t>(cu % 2) << 8);
}

std::uint32_t FakeHipRuntime::reported_hw_id(int cu) {
  if (auto it = config_.alias_cu.find(cu); it != config_.alias_cu.end()) cu = it->second;
  if (config_.drifting_cu && cu == *config_.drifting_cu && (drift_launches_++ % 2 == 1)) {
    cu = (cu + 1) % config_.cu_count;
  }
  return hw_id_for_cu(cu);
}

PingPongResult FakeHipRuntime::run_ping_pong(const PingPongLaunch& launch) {
  const int a = cu_of(launch.a_stream);
  const int b = cu_of(launch.b_stream);
  if (buffers_.count(launch.flags) == 0) throw std::logic_error("launch on freed flags");
  if (launch.a_share < 0 || launch.a_share > launch.iters) {
    throw std::logic_error("a_share outside [0, iters]");
  }
  launches.push_back(Launch{a, b, launch});

  PingPongResult r;
  r.a_hw_id = reported_hw_id(a);
  r.b_hw_id = reported_hw_id(b);
  r.cold_ticks = config_.cold_ticks;
  int samples = launch.samples;
  if (config_.timeout_cu && (a == *config_.timeout_cu || b == *config_.timeout_cu)) {
    r.timed_out = true;
    samples = std::min(samples, 1);
  }
  const auto a_trips = static_cast<std::uint64_t>(launch.a_share);
  const auto b_trips = static_cast<std::uint64_t>(launch.iters - launch.a_share);
  std::uint64_t total = r.cold_ticks;
  for (int s = 0; s < samples; ++s) {
    r.a_pinged.ticks.push_back(config_.a_ping_ticks * a_trips);
    r.a_pinged.cycles.push_back(config_.a_ping_cycles * a_trips);
    r.b_pinged.ticks.push_back(config_.b_ping_ticks * b_trips);
    r.b_pinged.cycles.push_back(config_.b_ping_cycles * b_trips);
    total += r.a_pinged.ticks.back() + r.b_pinged.ticks.back();
  }
  r.event_ms = static_cast<double>(total) / config_.wall_clock_hz * 1e3 * config_.event_ms_factor;
  return r;
}

std::uint32_t FakeHipRuntime::read_hw_id(HipStream stream) { return reported_hw_id(cu_of(stream)); }

}  // namespace cumap::testing
