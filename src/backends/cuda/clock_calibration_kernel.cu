// The SM clock against %globaltimer, outside any measurement: the fallback
// rate for launches too short to time themselves.
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/device_ops.cuh"
#include "backends/cuda/launches.hpp"

namespace cumap::cuda {
namespace {

// %globaltimer and clock64 at both ends of a spin of `ns` nanoseconds.
struct Marks {
  std::uint64_t g0, g1;
  long long c0, c1;
};

__device__ Marks spin_for(std::uint64_t ns) {
  using dev::globaltimer_ns;
  Marks m;
  m.g0 = globaltimer_ns();
  m.c0 = clock64();
  do {
    m.g1 = globaltimer_ns();
  } while (m.g1 - m.g0 < ns);
  m.c1 = clock64();
  return m;
}

__device__ double cycles_per_ns(const Marks& m) {
  return static_cast<double>(m.c1 - m.c0) / static_cast<double>(m.g1 - m.g0);
}

__global__ void clock_calibration_kernel(std::uint64_t* marks, std::uint64_t settle_ns, std::uint64_t measure_ns) {
  // Spin first so the SM clock leaves its idle state: until two 2 ms windows
  // in a row agree within 0.2 % (at once on a GPU that was just busy, as in
  // a map), for at most settle_ns. Then count cycles over a known stretch of
  // %globaltimer.
  constexpr std::uint64_t kWindowNs = 2'000'000;
  const std::uint64_t t_start = dev::globaltimer_ns();
  double previous = cycles_per_ns(spin_for(kWindowNs));
  while (dev::globaltimer_ns() - t_start < settle_ns) {
    const double rate = cycles_per_ns(spin_for(kWindowNs));
    if (fabs(rate - previous) <= 0.002 * previous) break;
    previous = rate;
  }
  const Marks m = spin_for(measure_ns);
  marks[0] = static_cast<std::uint64_t>(m.c0);
  marks[1] = m.g0;
  marks[2] = static_cast<std::uint64_t>(m.c1);
  marks[3] = m.g1;
}

}  // namespace

void launch_clock_calibration(std::uint64_t* marks, std::uint64_t settle_ns, std::uint64_t measure_ns,
                              cudaStream_t stream) {
  clock_calibration_kernel<<<1, 1, 0, stream>>>(marks, settle_ns, measure_ns);
  CUMAP_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cumap::cuda
