// Home discovery on the device: how long a chain of dependent atomics takes
// from one SM to one line of the flag arena. One cooperative launch, one
// block per SM (roles by %smid, as in the ping-pong). Serially the SMs of the
// launch take turns through a counter, so one SM probes while the others
// sleep and the L2 carries nothing else; together (the default) they probe
// at once, each on its own line at any moment: 132 chains of one
// outstanding atomic each are a light load for the L2, and the table is
// checked against the serial one (bench/RESULTS.md).
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/device_ops.cuh"
#include "backends/cuda/launches.hpp"

namespace cumap::cuda {
namespace {

using namespace dev;

// `chain` atomicAdd(line, 0), each address depending on the previous result
// (and the first on the start time), so they cannot overlap: cycles of the
// whole chain. Another GPU's line is reached with the system-scope atomics a
// pair across GPUs signals with.
template <bool kRemote>
__device__ std::uint64_t time_chain(unsigned* line, int chain, unsigned zero_mask) {
  const std::uint64_t t0 = static_cast<std::uint64_t>(clock64());
  unsigned v = static_cast<unsigned>(t0) & zero_mask;
  for (int i = 0; i < chain; ++i) {
    if constexpr (kRemote) v = atomicAdd_system(line + (v & zero_mask), zero_mask);
    else v = atomicAdd(line + (v & zero_mask), zero_mask);
  }
  return clock_after(v) - t0;
}

// Together, turn t starts at line t * line_count / turn_count and wraps
// around: the SMs walk the lines spread evenly apart, so two chains seldom
// meet on one line (near and far lines differ in time, so the walks drift,
// but by less than the spacing over a probe).
__device__ void probe_every_line(const LineProbeParams& lp, int turn) {
  unsigned* arena = const_cast<unsigned*>(lp.arena);
  const int first = lp.together ? static_cast<int>(static_cast<long long>(turn) * lp.line_count / lp.turn_count) : 0;
  for (int i = 0; i < lp.line_count; ++i) {
    const int l = (first + i) % lp.line_count;
    unsigned* line = arena + lp.line_words[l];
    for (int r = 0; r < lp.repeats; ++r)
      lp.cycles[(static_cast<std::size_t>(turn) * lp.line_count + l) * lp.repeats + r] =
          lp.remote ? time_chain<true>(line, lp.chain, lp.zero_mask) : time_chain<false>(line, lp.chain, lp.zero_mask);
  }
}

__global__ void __launch_bounds__(32, 1) line_probe_kernel(LineProbeParams lp) {
  extern __shared__ unsigned char one_block_per_sm[];  // sized by the host, never used
  (void)one_block_per_sm;
  if (threadIdx.x != 0) return;
  unsigned* const arrived = lp.control + kArrivedSlot;
  unsigned* const turns_done = lp.control + kPairsDoneSlot;
  unsigned* const abort = lp.control + kAbortSlot;
  const int me = static_cast<int>(smid());

  if (blockIdx.x == 0) {
    lp.clock_marks[0] = static_cast<std::uint64_t>(clock64());
    lp.clock_marks[1] = globaltimer_ns();
  }
  lp.block_sm[blockIdx.x] = me;
  if (me < lp.sm_id_limit) atomicAdd(&lp.sm_blocks[me], 1);
  __threadfence();
  atomicAdd(arrived, 1u);
  if (!wait_at_least(arrived, gridDim.x, lp.turn_budget_cycles, abort, kAbortWaitTimeout, lp.turn_ns_estimate, 1))
    return;
  if (me >= lp.sm_id_limit || ld_relaxed(reinterpret_cast<unsigned*>(&lp.sm_blocks[me])) != 1) {
    atomicCAS(abort, 0u, static_cast<unsigned>(kAbortSharedSm));
    return;
  }

  const int turn = lp.turn_of_sm[me];
  if (turn >= 0) {
    if (!lp.together && !wait_at_least(turns_done, static_cast<unsigned>(turn), lp.turn_budget_cycles * (turn + 1),
                                       abort, kAbortWaitTimeout, lp.turn_ns_estimate, 1))
      return;
    probe_every_line(lp, turn);
    __threadfence();
    atomicAdd(turns_done, 1u);
  }

  if (blockIdx.x == 0 &&
      wait_at_least(turns_done, static_cast<unsigned>(lp.turn_count), lp.turn_budget_cycles * (lp.turn_count + 1),
                    abort, kAbortWaitTimeout, lp.turn_ns_estimate, 1)) {
    lp.clock_marks[2] = static_cast<std::uint64_t>(clock64());
    lp.clock_marks[3] = globaltimer_ns();
  }
}

}  // namespace

void prepare_line_probe_kernel(std::size_t smem_bytes) {
  CUMAP_CUDA_CHECK(cudaFuncSetAttribute(line_probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(smem_bytes)));
}

void launch_line_probe(const LineProbeParams& params, int blocks, std::size_t smem_bytes, cudaStream_t stream) {
  LineProbeParams copy = params;
  void* args[] = {&copy};
  CUMAP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(line_probe_kernel), dim3(blocks), dim3(1), args,
                                               smem_bytes, stream));
}

}  // namespace cumap::cuda
