// The SM clock against %globaltimer, outside any measurement: the fallback
// rate for launches too short to time themselves.
#include "backends/cuda/clock_calibration_launch.hpp"
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/device_ops.cuh"

namespace cumap::cuda {
namespace {

__global__ void clock_calibration_kernel(std::uint64_t* marks, std::uint64_t settle_ns, std::uint64_t measure_ns) {
  using dev::globaltimer_ns;
  // Spin first so the SM clock leaves its idle state, then count cycles over a
  // known stretch of %globaltimer.
  const std::uint64_t t_start = globaltimer_ns();
  while (globaltimer_ns() - t_start < settle_ns) {
  }
  const std::uint64_t g0 = globaltimer_ns();
  const long long c0 = clock64();
  std::uint64_t g1;
  do {
    g1 = globaltimer_ns();
  } while (g1 - g0 < measure_ns);
  const long long c1 = clock64();
  marks[0] = static_cast<std::uint64_t>(c0);
  marks[1] = g0;
  marks[2] = static_cast<std::uint64_t>(c1);
  marks[3] = g1;
}

}  // namespace

void launch_clock_calibration(std::uint64_t* marks, std::uint64_t settle_ns, std::uint64_t measure_ns,
                              cudaStream_t stream) {
  clock_calibration_kernel<<<1, 1, 0, stream>>>(marks, settle_ns, measure_ns);
  CUMAP_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cumap::cuda
