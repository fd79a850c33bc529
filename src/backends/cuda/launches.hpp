#pragma once
// What a launch of each kernel takes: the host entry points of
// pingpong_kernel.cu, line_probe_kernel.cu, clock_calibration_kernel.cu and
// coherence_kernel.cu. Plain C++ declarations, so that the rest of the
// backend compiles with the host compiler.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "backends/cuda/launch_params.hpp"

namespace cumap::cuda {

// The ping-pong (pingpong_kernel.cu).

inline constexpr int kPingPongThreads = 128;  // with --flush-cache: thread 0 plays, warps 1-3 flush

// Raises the kernels' dynamic shared memory limit to `smem_bytes`: asking for
// a whole SM's shared memory is what keeps every SM to one block.
void prepare_pingpong_kernels(std::size_t smem_bytes);

// Cooperative launch of the persistent ping-pong kernel, `blocks` = SM count.
void launch_pingpong(const PingPongParams& params, int blocks, std::size_t smem_bytes, cudaStream_t stream);

// Home discovery (line_probe_kernel.cu).

// Whole-SM shared memory per block, as for the ping-pong: one block per SM.
void prepare_line_probe_kernel(std::size_t smem_bytes);

// Cooperative launch, `blocks` = SM count: the SMs named in
// params.turn_of_sm probe one after another, the others only check in.
void launch_line_probe(const LineProbeParams& params, int blocks, std::size_t smem_bytes, cudaStream_t stream);

// The clock calibration (clock_calibration_kernel.cu).

// One thread spins until the SM clock is steady (at most `settle_ns`), then
// writes clock64/%globaltimer marks (start cycles, start ns, end cycles, end
// ns) around a further `measure_ns`.
void launch_clock_calibration(std::uint64_t* marks, std::uint64_t settle_ns, std::uint64_t measure_ns,
                              cudaStream_t stream);

// `cumap check-coherence` (coherence_kernel.cu).

inline constexpr int kStoreOps = 3;  // st.wb, st.cg, st.wt
inline constexpr int kLoadOps = 4;   // ld.ca, ld.cg, ld.volatile, ld.nc
// Loads that may keep the line in the SM's L1 (the others bypass it).
inline constexpr bool kLoadCachesInL1[kLoadOps] = {true, false, false, true};
extern const char* const kStoreOpNames[kStoreOps];
extern const char* const kLoadOpNames[kLoadOps];

inline constexpr int kCoherenceOutWords = 5;

struct CoherenceParams {
  unsigned* data;     // the line under test, zero on entry
  unsigned* ready;    // reader -> writer: the line sits in the reader's L1
  unsigned* written;  // writer -> reader: the store is done
  std::uint64_t* out;  // [kCoherenceOutWords]: saw new value, cycles to see it, window cycles,
                       // handshake timed out, cycles of a reload right after priming
  unsigned* claims;   // [claim_slots], zero: the first block on an SM claims it
  int claim_slots;
  int reader_sm;
  int writer_sm;
  std::uint64_t handshake_budget_cycles;
  std::uint64_t window_cycles;
};

// The kernels ask for the largest L1 (no shared memory): the experiment needs
// the reader's L1 to hold the line.
void prepare_coherence_kernels();
// Several small blocks per SM so that every SM gets one; on each SM only the
// first block to claim it acts, and only on the reader and writer SMs.
void launch_coherence(int store_op, int load_op, const CoherenceParams& p, int blocks, cudaStream_t stream);

}  // namespace cumap::cuda
