#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "backends/cuda/cuda_check.hpp"

namespace cumap::cuda {

// Owns `count` elements of device memory (plain cudaMalloc, never managed).
template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) CUMAP_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes()));
  }
  ~DeviceBuffer() {
    if (ptr_) (void)cudaFree(ptr_);  // no throwing from a destructor; errors surface at the next checked call
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void zero(cudaStream_t s) { CUMAP_CUDA_CHECK(cudaMemsetAsync(ptr_, 0, bytes(), s)); }
  void upload(const std::vector<T>& host, cudaStream_t s) {
    CUMAP_CUDA_CHECK(cudaMemcpyAsync(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  std::vector<T> download(std::size_t n, cudaStream_t s) const {
    std::vector<T> host(n);
    CUMAP_CUDA_CHECK(cudaMemcpyAsync(host.data(), ptr_, n * sizeof(T), cudaMemcpyDeviceToHost, s));
    CUMAP_CUDA_CHECK(cudaStreamSynchronize(s));
    return host;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_;
};

// A pair of events bracketing work on a stream; elapsed() in milliseconds.
class EventTimer {
 public:
  EventTimer() {
    CUMAP_CUDA_CHECK(cudaEventCreate(&start_));
    CUMAP_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    (void)cudaEventDestroy(start_);
    (void)cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start(cudaStream_t s) { CUMAP_CUDA_CHECK(cudaEventRecord(start_, s)); }
  void stop(cudaStream_t s) { CUMAP_CUDA_CHECK(cudaEventRecord(stop_, s)); }
  float elapsed_ms() const {
    float ms = 0;
    CUMAP_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

// A stream that is destroyed with its owner.
class Stream {
 public:
  Stream() { CUMAP_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { (void)cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_{};
};

}  // namespace cumap::cuda
