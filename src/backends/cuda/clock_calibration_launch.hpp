#pragma once
// Host entry point of the clock calibration kernel (clock_calibration_kernel.cu).
#include <cuda_runtime_api.h>

#include <cstdint>

namespace cumap::cuda {

// One thread spins until the SM clock is steady (at most `settle_ns`), then
// writes clock64/%globaltimer marks (start cycles, start ns, end cycles, end
// ns) around a further `measure_ns`.
void launch_clock_calibration(std::uint64_t* marks, std::uint64_t settle_ns, std::uint64_t measure_ns,
                              cudaStream_t stream);

}  // namespace cumap::cuda
