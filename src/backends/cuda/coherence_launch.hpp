#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cumap::cuda {

inline constexpr int kStoreOps = 3;  // st.wb, st.cg, st.wt
inline constexpr int kLoadOps = 3;   // ld.ca, ld.cg, ld.volatile
extern const char* const kStoreOpNames[kStoreOps];
extern const char* const kLoadOpNames[kLoadOps];

inline constexpr int kCoherenceOutWords = 5;

struct CoherenceParams {
  unsigned* data;     // the line under test, zero on entry
  unsigned* ready;    // reader -> writer: the line sits in the reader's L1
  unsigned* written;  // writer -> reader: the store is done
  std::uint64_t* out;  // [kCoherenceOutWords]: saw new value, cycles to see it, window cycles,
                       // handshake timed out, cycles of a reload right after priming
  int reader_sm;
  int writer_sm;
  std::uint64_t handshake_budget_cycles;
  std::uint64_t window_cycles;
};

void prepare_coherence_kernels(std::size_t smem_bytes);
// Cooperative launch over every SM; only the two named SMs act.
void launch_coherence(int store_op, int load_op, const CoherenceParams& p, int blocks, std::size_t smem_bytes,
                      cudaStream_t stream);

}  // namespace cumap::cuda
