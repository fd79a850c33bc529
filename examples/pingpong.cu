// Example 1: two blocks on two SMs of one side ping-pong on a flag line.
// First on lines of plain cudaMalloc allocations, as a program gets them,
// then on lines cumap::place chose for the two SMs. Prints both, one-way.
//   example_pingpong [GPU]
#include <cumap/place.hpp>

#include "example_common.cuh"

namespace {

constexpr int kWarmup = 64;
constexpr int kRoundTrips = 2000;

// SM `a` pings, SM `b` answers, on two words of one line (cumap's
// same-line placement). Every poll is a CAS, as in cumap's default probe.
__global__ void pingpong(unsigned* line, int a, int b, unsigned long long* elapsed_ns, int* ok) {
  extern __shared__ unsigned char one_block_per_sm[];
  (void)one_block_per_sm;
  if (threadIdx.x != 0) return;
  const int me = static_cast<int>(example::smid());
  if (me != a && me != b) return;
  unsigned* const ping = line;
  unsigned* const pong = line + 1;
  const unsigned long long start = example::globaltimer();
  unsigned long long t0 = 0;
  for (unsigned k = 1; k <= kWarmup + kRoundTrips; ++k) {
    if (k == kWarmup + 1 && me == a) t0 = example::globaltimer();
    unsigned* const send = me == a ? ping : pong;
    unsigned* const wait = me == a ? pong : ping;
    if (me == a) atomicCAS(send, k - 1, k);
    unsigned polls = 0;
    while (atomicCAS(wait, k, k) != k)
      if (++polls % 1024 == 0 && example::globaltimer() - start > example::kWaitBudgetNs) return;
    if (me == b) atomicCAS(send, k - 1, k);
  }
  if (me == a) {
    *elapsed_ns = example::globaltimer() - t0;
    *ok = 1;
  }
}

// One-way ns of SMs a and b on the line at `line`.
double one_way_ns(unsigned* line, int a, int b, const example::OneBlockPerSm& shape) {
  unsigned long long* elapsed;
  int* ok;
  EXAMPLE_CHECK(cudaMallocManaged(&elapsed, sizeof *elapsed));
  EXAMPLE_CHECK(cudaMallocManaged(&ok, sizeof *ok));
  *ok = 0;
  EXAMPLE_CHECK(cudaMemset(line, 0, 8));
  void* args[] = {&line, &a, &b, &elapsed, &ok};
  EXAMPLE_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(pingpong), shape.blocks, 1, args, shape.smem));
  EXAMPLE_CHECK(cudaDeviceSynchronize());
  if (!*ok) {
    std::fprintf(stderr, "SMs %d and %d did not complete their round trips\n", a, b);
    std::exit(1);
  }
  const double ns = static_cast<double>(*elapsed) / kRoundTrips / 2;
  EXAMPLE_CHECK(cudaFree(elapsed));
  EXAMPLE_CHECK(cudaFree(ok));
  return ns;
}

}  // namespace

int main(int argc, char** argv) {
  const int gpu = argc > 1 ? std::atoi(argv[1]) : 0;
  const example::OneBlockPerSm shape = example::one_block_per_sm(gpu, pingpong);
  const cumap::place::Chip chip = cumap::place::Chip::discover(gpu);
  // Two SMs of side 0, apart in id.
  std::vector<int> side0;
  for (int sm : chip.sms())
    if (chip.side_of(sm) == 0) side0.push_back(sm);
  const int a = side0.front(), b = side0[side0.size() / 2];
  std::printf("GPU %d (serial %s): %d home classes; SMs %d and %d, both on side 0\n", gpu, chip.serial().c_str(),
              chip.class_count(), a, b);

  // As a program gets them: four allocations, a flag at each 16 KiB.
  constexpr std::size_t kBytes = 64 << 10;
  std::vector<unsigned*> buffers(4);
  for (unsigned*& buffer : buffers) EXAMPLE_CHECK(cudaMalloc(&buffer, kBytes));
  std::vector<double> unplaced, placed;
  for (unsigned* buffer : buffers)
    for (std::size_t offset = 0; offset < kBytes; offset += 16 << 10)
      unplaced.push_back(one_way_ns(buffer + offset / sizeof(unsigned), a, b, shape));
  // Placed: lines of the first allocation the library chose for the pair.
  cumap::place::LinePool pool = chip.classify(buffers.front(), kBytes);
  for (int i = 0; i < 16; ++i) placed.push_back(one_way_ns(pool.for_pair(a, b).pointer<unsigned>(), a, b, shape));
  example::print_result("ping-pong one-way", "ns", unplaced, placed);
  for (unsigned* buffer : buffers) EXAMPLE_CHECK(cudaFree(buffer));
  return 0;
}
