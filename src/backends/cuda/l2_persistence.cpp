#include "backends/cuda/l2_persistence.hpp"

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/launch_plan.hpp"
#include "cumap/error.hpp"

namespace cumap::cuda {

PersistingL2Window::PersistingL2Window(cudaStream_t stream, void* base, std::size_t bytes,
                                       std::size_t persisting_max, std::size_t window_max)
    : stream_(stream), bytes_(persisting_window_bytes(bytes, persisting_max, window_max)) {
  if (bytes_ == 0) throw UsageError("--l2-persist: this device has no persisting L2 (compute capability 8.0+ needed)");
  CUMAP_CUDA_CHECK(cudaDeviceGetLimit(&previous_limit_, cudaLimitPersistingL2CacheSize));
  CUMAP_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes_));
  cudaStreamAttrValue attr{};
  attr.accessPolicyWindow.base_ptr = base;
  attr.accessPolicyWindow.num_bytes = bytes_;
  attr.accessPolicyWindow.hitRatio = 1.0f;
  attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CUMAP_CUDA_CHECK(cudaStreamSetAttribute(stream_, cudaStreamAttributeAccessPolicyWindow, &attr));
}

PersistingL2Window::~PersistingL2Window() {
  // Best effort: a destructor must not throw, and the next checked call
  // reports a broken context anyway.
  cudaStreamAttrValue attr{};
  attr.accessPolicyWindow.num_bytes = 0;
  (void)cudaStreamSetAttribute(stream_, cudaStreamAttributeAccessPolicyWindow, &attr);
  (void)cudaCtxResetPersistingL2Cache();
  (void)cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, previous_limit_);
}

}  // namespace cumap::cuda
