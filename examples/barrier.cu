// Example 2: a barrier of every SM of one side on one counter: on counter
// lines of plain cudaMalloc allocations, then on lines cumap::place chose
// for those SMs. Prints ns per barrier.
//   example_barrier [GPU]
#include <cumap/place.hpp>

#include "example_common.cuh"

namespace {

constexpr int kWarmup = 50;
constexpr int kEpisodes = 1000;

// Every SM with side_of_sm[smid] == side adds 1 and polls (with a CAS, as
// cumap's barriers do) until all k have, episode after episode. The first
// participant times the episodes.
__global__ void barrier(unsigned* counter, const int* side_of_sm, int entries, int side, unsigned k, int first,
                        unsigned long long* elapsed_ns, int* ok) {
  extern __shared__ unsigned char one_block_per_sm[];
  (void)one_block_per_sm;
  if (threadIdx.x != 0) return;
  const int me = static_cast<int>(example::smid());
  if (me >= entries || side_of_sm[me] != side) return;
  const unsigned long long start = example::globaltimer();
  unsigned long long t0 = 0;
  for (unsigned e = 1; e <= kWarmup + kEpisodes; ++e) {
    if (e == kWarmup + 1 && me == first) t0 = example::globaltimer();
    atomicAdd(counter, 1u);
    const unsigned target = k * e;
    unsigned polls = 0;
    while (atomicCAS(counter, target, target) < target)
      if (++polls % 1024 == 0 && example::globaltimer() - start > example::kWaitBudgetNs) return;
  }
  if (me == first) {
    *elapsed_ns = example::globaltimer() - t0;
    *ok = 1;
  }
}

struct Side {
  int side = 0;
  std::vector<int> sms;
  int* table = nullptr;  // side_of_sm on the device
  int entries = 0;
};

double ns_per_barrier(unsigned* counter, const Side& s, const example::OneBlockPerSm& shape) {
  unsigned long long* elapsed;
  int* ok;
  EXAMPLE_CHECK(cudaMallocManaged(&elapsed, sizeof *elapsed));
  EXAMPLE_CHECK(cudaMallocManaged(&ok, sizeof *ok));
  *ok = 0;
  EXAMPLE_CHECK(cudaMemset(counter, 0, sizeof(unsigned)));
  int side = s.side, entries = s.entries, first = s.sms.front();
  unsigned k = static_cast<unsigned>(s.sms.size());
  const int* table = s.table;
  void* args[] = {&counter, &table, &entries, &side, &k, &first, &elapsed, &ok};
  EXAMPLE_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(barrier), shape.blocks, 1, args, shape.smem));
  EXAMPLE_CHECK(cudaDeviceSynchronize());
  if (!*ok) {
    std::fprintf(stderr, "the barrier of side %d did not complete\n", s.side);
    std::exit(1);
  }
  const double ns = static_cast<double>(*elapsed) / kEpisodes;
  EXAMPLE_CHECK(cudaFree(elapsed));
  EXAMPLE_CHECK(cudaFree(ok));
  return ns;
}

}  // namespace

int main(int argc, char** argv) {
  const int gpu = argc > 1 ? std::atoi(argv[1]) : 0;
  const example::OneBlockPerSm shape = example::one_block_per_sm(gpu, barrier);
  const cumap::place::Chip chip = cumap::place::Chip::discover(gpu);
  Side s;
  for (int sm : chip.sms())
    if (chip.side_of(sm) == s.side) s.sms.push_back(sm);
  const std::vector<int> sides = chip.side_table();
  s.entries = static_cast<int>(sides.size());
  EXAMPLE_CHECK(cudaMalloc(&s.table, sides.size() * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(s.table, sides.data(), sides.size() * sizeof(int), cudaMemcpyHostToDevice));
  std::printf("GPU %d (serial %s): a barrier of the %zu SMs of side %d\n", gpu, chip.serial().c_str(), s.sms.size(),
              s.side);

  constexpr std::size_t kBytes = 64 << 10;
  std::vector<unsigned*> buffers(4);
  for (unsigned*& buffer : buffers) EXAMPLE_CHECK(cudaMalloc(&buffer, kBytes));
  std::vector<double> unplaced, placed;
  for (unsigned* buffer : buffers)
    for (std::size_t offset = 0; offset < kBytes; offset += 16 << 10)
      unplaced.push_back(ns_per_barrier(buffer + offset / sizeof(unsigned), s, shape));
  cumap::place::LinePool pool = chip.classify(buffers.front(), kBytes);
  for (int i = 0; i < 16; ++i) placed.push_back(ns_per_barrier(pool.for_units(s.sms).pointer<unsigned>(), s, shape));
  example::print_result("one-side barrier", "ns per barrier", unplaced, placed);
  for (unsigned* buffer : buffers) EXAMPLE_CHECK(cudaFree(buffer));
  EXAMPLE_CHECK(cudaFree(s.table));
  return 0;
}
