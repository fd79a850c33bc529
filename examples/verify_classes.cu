// The classes cumap::place gives a program's lines, checked by a timing of
// its own: one SM of each side times a chain of dependent atomics to every
// line (one SM at a time, a plain kernel of this file, not cumap's line
// probe), and a line is in the class of the side that reaches it fastest.
// Prints how long classify took and how many lines agree.
//   example_verify_classes [GPU]
#include <cumap/place.hpp>

#include <chrono>

#include "example_common.cuh"

namespace {

constexpr int kChain = 64;

// The block on SM `sm` times kChain dependent atomics on each of `count`
// lines 128 bytes apart from `base`, one line after another. Each atomic's
// address takes the value the one before returned (always 0: the buffer is
// zeroed and atomicOr(.., 0) leaves it so), which the compiler cannot know,
// so the chain measures latency rather than how fast atomics issue.
__global__ void time_lines(const unsigned* base, int count, int sm, unsigned long long* ns) {
  extern __shared__ unsigned char one_block_per_sm[];
  (void)one_block_per_sm;
  if (threadIdx.x != 0 || static_cast<int>(example::smid()) != sm) return;
  unsigned* const lines = const_cast<unsigned*>(base);
  unsigned previous = 0;
  for (int l = 0; l < count; ++l) {
    unsigned* const line = lines + l * 32;
    const unsigned long long t0 = example::globaltimer();
    for (int i = 0; i < kChain; ++i) previous = atomicOr(line + previous, 0u);
    ns[l] = example::globaltimer() - t0 + previous;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int gpu = argc > 1 ? std::atoi(argv[1]) : 0;
  const example::OneBlockPerSm shape = example::one_block_per_sm(gpu, time_lines);
  const cumap::place::Chip chip = cumap::place::Chip::discover(gpu);
  if (chip.class_count() != 2) {
    std::printf("GPU %d: %d home class(es): this check is for chips with two\n", gpu, chip.class_count());
    return 0;
  }
  int probe[2] = {-1, -1};  // an SM of each side
  for (int sm : chip.sms())
    if (probe[chip.side_of(sm)] < 0) probe[chip.side_of(sm)] = sm;
  constexpr std::size_t kBytes = 64 << 10;
  constexpr int kLines = kBytes / 128;
  constexpr int kBuffers = 4;
  int agree = 0, lines = 0;
  std::vector<double> classify_ms;
  unsigned long long* ns;
  EXAMPLE_CHECK(cudaMallocManaged(&ns, 2 * kLines * sizeof *ns));
  for (int b = 0; b < kBuffers; ++b) {
    unsigned* buffer;
    EXAMPLE_CHECK(cudaMalloc(&buffer, kBytes));
    EXAMPLE_CHECK(cudaMemset(buffer, 0, kBytes));
    const auto t0 = std::chrono::steady_clock::now();
    const cumap::place::LinePool pool = chip.classify(buffer, kBytes);
    classify_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    for (int side = 0; side < 2; ++side) {
      const unsigned* base = buffer;
      int count = kLines, sm = probe[side];
      unsigned long long* out = ns + side * kLines;
      void* args[] = {&base, &count, &sm, &out};
      EXAMPLE_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(time_lines), shape.blocks, 1, args, shape.smem));
      EXAMPLE_CHECK(cudaDeviceSynchronize());
    }
    for (int l = 0; l < kLines; ++l) {
      const int nearest_side = ns[l] <= ns[kLines + l] ? 0 : 1;  // home class c is the class side c is near
      agree += pool.lines()[static_cast<std::size_t>(l)].home_class == nearest_side;
      ++lines;
    }
    EXAMPLE_CHECK(cudaFree(buffer));
  }
  std::printf("GPU %d (serial %s): classify of 64 KiB took %.1f ms (first) and %.1f ms (mean of the %d); "
              "%d of %d lines (%.2f %%) in the class an independent timing from SMs %d and %d finds\n",
              gpu, chip.serial().c_str(), classify_ms.front(), example::mean(classify_ms), kBuffers, agree, lines,
              100.0 * agree / lines, probe[0], probe[1]);
  EXAMPLE_CHECK(cudaFree(ns));
  return agree * 100 >= lines * 99 ? 0 : 1;
}
