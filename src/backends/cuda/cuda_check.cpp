#include "backends/cuda/cuda_check.hpp"

#include <fmt/format.h>

#include "cumap/error.hpp"

namespace cumap::cuda {

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  throw RuntimeFailure(fmt::format("{} failed at {}:{}: {} ({})", call, file, line, cudaGetErrorString(err),
                                   cudaGetErrorName(err)));
}

}  // namespace cumap::cuda
