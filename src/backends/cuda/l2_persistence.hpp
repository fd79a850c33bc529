#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

namespace cumap::cuda {

// --l2-persist: while alive, the stream's accesses to [base, base+bytes) are
// marked persisting in L2 and the persisting carve-out is sized to match;
// the destructor puts the window, the carve-out and the persisting lines back.
class PersistingL2Window {
 public:
  PersistingL2Window(cudaStream_t stream, void* base, std::size_t bytes, std::size_t persisting_max,
                     std::size_t window_max);
  ~PersistingL2Window();
  PersistingL2Window(const PersistingL2Window&) = delete;
  PersistingL2Window& operator=(const PersistingL2Window&) = delete;
  std::size_t bytes() const { return bytes_; }

 private:
  cudaStream_t stream_;
  std::size_t bytes_;
  std::size_t previous_limit_ = 0;
};

}  // namespace cumap::cuda
