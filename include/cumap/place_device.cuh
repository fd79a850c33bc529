#pragma once
// cumap::place in a kernel: the side of the SM a block runs on, from the
// table cumap::place::Chip::side_table() filled (copied to device memory,
// indexed by %smid), for kernels that choose their flag by where they landed.
//
//   std::vector<int> sides = chip.side_table();
//   int* d_sides;  cudaMalloc(&d_sides, sides.size() * sizeof(int));
//   cudaMemcpy(d_sides, sides.data(), sides.size() * sizeof(int), cudaMemcpyHostToDevice);
//   ... in the kernel: const int side = cumap::place::side_of_this_sm(d_sides, entries);
//       unsigned* flag = flags_near[side];   // lines of the class that side is near
namespace cumap::place {

__device__ __forceinline__ unsigned this_sm() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// -1 where the table has no entry for this SM.
__device__ __forceinline__ int side_of_this_sm(const int* side_table, int entries) {
  const unsigned id = this_sm();
  return id < static_cast<unsigned>(entries) ? side_table[id] : -1;
}

}  // namespace cumap::place
