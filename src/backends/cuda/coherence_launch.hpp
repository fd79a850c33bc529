#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cumap::cuda {

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
