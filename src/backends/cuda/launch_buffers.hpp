#pragma once
// The device memory the kernels read and write besides the flag arena.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "backends/cuda/device_buffer.hpp"
#include "backends/cuda/launch_params.hpp"
#include "backends/cuda/launch_plan.hpp"

namespace cumap::cuda {

// What every launch shares: per-block %smid, blocks per SM, the control
// words and the clock marks; reset before every launch. The control words
// are the GPU's own; in a group of GPUs the others add to them too.
class LaunchControl {
 public:
  LaunchControl(int blocks, int sm_id_limit)
      : block_sm_(blocks), sm_blocks_(sm_id_limit), control_(kControlWords), marks_(4), sm_id_limit_(sm_id_limit) {}

  void reset(cudaStream_t s) {
    sm_blocks_.zero(s);
    control_.zero(s);
    marks_.zero(s);
  }
  // The fields of launch parameters every kernel has (not the control words:
  // words() gives them, for a line probe's `control` or a group's controls).
  template <typename Params>
  void point(Params& p) const {
    p.block_sm = block_sm_.get();
    p.sm_blocks = sm_blocks_.get();
    p.sm_id_limit = sm_id_limit_;
    p.clock_marks = marks_.get();
  }
  unsigned* words() const { return control_.get(); }
  unsigned abort_code(cudaStream_t s) const { return control_.download(kControlWords, s)[kAbortSlot]; }
  std::array<std::uint64_t, 4> clock_marks(cudaStream_t s) const {
    const auto m = marks_.download(4, s);
    return {m[0], m[1], m[2], m[3]};
  }
  std::vector<int> block_sm(cudaStream_t s) const { return block_sm_.download(block_sm_.size(), s); }

 private:
  DeviceBuffer<int> block_sm_, sm_blocks_;
  DeviceBuffer<unsigned> control_;
  DeviceBuffer<std::uint64_t> marks_;
  int sm_id_limit_;
};

// The ping-pong's per-launch records, for up to `max_pairs` pairs in
// `max_rounds` rounds and `sample_slots` samples in all (kept while launches
// fit). A map across GPUs alternates plans of 3 and 2 samples a pair (pairs
// inside a GPU and across), so the room is counted in samples, not tied to
// one count, and grows to the largest launch yet (room_for): freeing and
// allocating device memory between every two plans cost each of them time.
class PingPongBuffers {
 public:
  PingPongBuffers(std::size_t max_pairs, std::size_t max_rounds, std::size_t sample_slots)
      : max_pairs_(std::max<std::size_t>(max_pairs, 1)),
        max_rounds_(std::max<std::size_t>(max_rounds, 1)),
        sample_slots_(std::max<std::size_t>(sample_slots, 1)),
        pairs_(max_pairs_),
        round_starts_(max_rounds_ + 1),
        sample_cycles_(sample_slots_),
        cold_cycles_(max_pairs_),
        status_(max_pairs_) {}

  // The room for a launch of `lp` at `samples` a pair, at least `old`'s
  // (nullptr: none yet) in every dimension.
  struct Room {
    std::size_t pairs, rounds, sample_slots;
  };
  static Room room_for(const PingPongBuffers* old, const LaunchPairs& lp, int samples) {
    const std::size_t rounds = lp.round_starts.empty() ? 0 : lp.round_starts.size() - 1;
    const std::size_t slots = lp.pairs.size() * static_cast<std::size_t>(std::max(samples, 1));
    if (!old) return {lp.pairs.size(), rounds, slots};
    return {std::max(old->max_pairs_, lp.pairs.size()), std::max(old->max_rounds_, rounds),
            std::max(old->sample_slots_, slots)};
  }
  explicit PingPongBuffers(const Room& room) : PingPongBuffers(room.pairs, room.rounds, room.sample_slots) {}

  bool fits(const LaunchPairs& lp, int samples) const {
    return lp.pairs.size() <= max_pairs_ && lp.round_starts.size() <= max_rounds_ + 1 &&
           lp.pairs.size() * static_cast<std::size_t>(samples) <= sample_slots_;
  }

  // Uploads the launch's pairs, clears the records, points `pp` at them.
  void prepare(PingPongParams& pp, const LaunchPairs& lp, cudaStream_t s) {
    if (!lp.pairs.empty()) pairs_.upload(lp.pairs, s);
    round_starts_.upload(lp.round_starts, s);
    for (auto* b : {&sample_cycles_, &cold_cycles_}) b->zero(s);
    status_.zero(s);
    samples_ = pp.settings.counts.samples;
    pp.pairs = pairs_.get();
    pp.pair_count = static_cast<int>(lp.pairs.size());
    pp.round_starts = round_starts_.get();
    pp.round_count = static_cast<int>(lp.round_starts.size()) - 1;
    pp.round_width = std::max(lp.round_width, 1u);
    pp.sample_cycles = sample_cycles_.get();
    pp.cold_cycles = cold_cycles_.get();
    pp.pair_status = status_.get();
  }

  // The last prepared launch's records: `samples` a pair, pair-major.
  LaunchRecords records(std::size_t pairs, cudaStream_t s) const {
    return {sample_cycles_.download(pairs * static_cast<std::size_t>(samples_), s), cold_cycles_.download(pairs, s),
            status_.download(pairs, s)};
  }

 private:
  std::size_t max_pairs_, max_rounds_, sample_slots_;
  int samples_ = 0;  // a pair's, in the last prepared launch
  DeviceBuffer<DevicePair> pairs_;
  DeviceBuffer<unsigned> round_starts_;
  DeviceBuffer<std::uint64_t> sample_cycles_, cold_cycles_;
  DeviceBuffer<int> status_;
};

}  // namespace cumap::cuda
