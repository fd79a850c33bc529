#pragma once
// Host entry points of the minimal reference ping-pong (minimal_pingpong.cu).
#include <cuda_runtime_api.h>

#include <cstddef>

// Same protocol as cumap (two flags, CAS signal, CAS poll); the block on SM a
// pings and writes `samples` cycle counts of `iters` round trips to out.
cudaError_t prepare_minimal_pingpong(std::size_t smem);
cudaError_t launch_minimal_pingpong(unsigned* first, unsigned* second, int a, int b, int iters, int samples,
                                    unsigned long long* out, int blocks, std::size_t smem, cudaStream_t stream);
