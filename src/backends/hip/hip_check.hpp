#pragma once
// The one way HIP calls are checked in this backend (real runtime only).
#include <fmt/format.h>
#include <hip/hip_runtime_api.h>

#include "cumap/error.hpp"

namespace cumap {

[[noreturn]] inline void throw_hip_failure(hipError_t code, const char* call, const char* file,
                                           int line) {
  throw RuntimeFailure(fmt::format("{} failed at {}:{}: {} ({})", call, file, line,
                                   hipGetErrorString(code), hipGetErrorName(code)));
}

}  // namespace cumap

// Throws RuntimeFailure naming the call, where it was made and HIP's message.
#define CUMAP_HIP_CHECK(call)                                                \
  do {                                                                       \
    const hipError_t cumap_hip_status_ = (call);                             \
    if (cumap_hip_status_ != hipSuccess) {                                   \
      ::cumap::throw_hip_failure(cumap_hip_status_, #call, __FILE__, __LINE__); \
    }                                                                        \
  } while (false)
