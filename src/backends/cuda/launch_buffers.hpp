#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "backends/cuda/device_buffer.hpp"
#include "backends/cuda/launch_params.hpp"
#include "backends/cuda/launch_plan.hpp"

namespace cumap::cuda {

// The device memory one ping-pong launch reads and writes, sized for the
// widest launch of a run, reset before every launch.
class LaunchBuffers {
 public:
  LaunchBuffers(std::size_t max_pairs, int samples, int blocks, int sm_id_limit)
      : pairs_(std::max<std::size_t>(max_pairs, 1)),
        sample_cycles_(std::max<std::size_t>(max_pairs, 1) * samples),
        cold_cycles_(std::max<std::size_t>(max_pairs, 1)),
        status_(std::max<std::size_t>(max_pairs, 1)),
        sides_done_(std::max<std::size_t>(max_pairs, 1)),
        block_sm_(blocks),
        sm_blocks_(sm_id_limit),
        control_(kControlWords),
        marks_(4),
        sm_id_limit_(sm_id_limit) {}

  // Points `pp` at these buffers and uploads the launch's pairs.
  void prepare(PingPongParams& pp, const std::vector<DevicePair>& pairs, cudaStream_t s) {
    if (!pairs.empty()) pairs_.upload(pairs, s);
    for (auto* b : {&sample_cycles_, &cold_cycles_, &marks_}) b->zero(s);
    status_.zero(s);
    sm_blocks_.zero(s);
    sides_done_.zero(s);
    control_.zero(s);
    pp.pairs = pairs_.get();
    pp.pair_count = static_cast<int>(pairs.size());
    pp.sample_cycles = sample_cycles_.get();
    pp.cold_cycles = cold_cycles_.get();
    pp.pair_status = status_.get();
    pp.sides_done = sides_done_.get();
    pp.block_sm = block_sm_.get();
    pp.sm_blocks = sm_blocks_.get();
    pp.sm_id_limit = sm_id_limit_;
    pp.control = control_.get();
    pp.clock_marks = marks_.get();
  }

  unsigned abort_code(cudaStream_t s) const { return control_.download(kControlWords, s)[kAbortSlot]; }
  std::array<std::uint64_t, 4> clock_marks(cudaStream_t s) const {
    const auto m = marks_.download(4, s);
    return {m[0], m[1], m[2], m[3]};
  }
  std::vector<int> block_sm(cudaStream_t s) const { return block_sm_.download(block_sm_.size(), s); }
  LaunchRecords records(std::size_t pairs, int samples, cudaStream_t s) const {
    return {sample_cycles_.download(pairs * samples, s), cold_cycles_.download(pairs, s), status_.download(pairs, s)};
  }

 private:
  DeviceBuffer<DevicePair> pairs_;
  DeviceBuffer<std::uint64_t> sample_cycles_, cold_cycles_;
  DeviceBuffer<int> status_;
  DeviceBuffer<unsigned> sides_done_;
  DeviceBuffer<int> block_sm_, sm_blocks_;
  DeviceBuffer<unsigned> control_;
  DeviceBuffer<std::uint64_t> marks_;
  int sm_id_limit_;
};

}  // namespace cumap::cuda
