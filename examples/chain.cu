// Example 3: a chain of producers and consumers between neighbouring blocks
// (a stream-K fix-up: each tile's block waits for the previous tile's block
// to publish its partial, then publishes its own), on the SMs of one side in
// a ring, round after round. Each flag is shared by the block that writes it
// and the next one: on an array of line-padded flags of a plain allocation,
// then on lines cumap::place chose for each neighbouring pair. Prints ns per
// hand-over.
//   example_chain [GPU]
#include <cumap/place.hpp>

#include "example_common.cuh"

namespace {

constexpr int kWarmupRounds = 20;
constexpr int kRounds = 500;
constexpr int kRing = 16;  // blocks in the ring

// flags[i] (i = 0..ring-1) is written by ring member i-1 (mod ring) and
// polled by member i. Round r: member 0 waits for its flag to hold r - 1
// (the ring closed on round r - 1; nothing to wait for in round 1) and
// writes r to member 1's flag; member i > 0 waits for r, then writes r to
// the next member's flag.
__global__ void chain(unsigned* const* flags, const int* ring_sm, unsigned long long* elapsed_ns, int* ok) {
  extern __shared__ unsigned char one_block_per_sm[];
  (void)one_block_per_sm;
  if (threadIdx.x != 0) return;
  const int me = static_cast<int>(example::smid());
  int i = -1;
  for (int m = 0; m < kRing; ++m)
    if (ring_sm[m] == me) i = m;
  if (i < 0) return;
  unsigned* const mine = flags[i];
  unsigned* const next = flags[(i + 1) % kRing];
  const unsigned long long start = example::globaltimer();
  unsigned long long t0 = 0;
  for (unsigned r = 1; r <= kWarmupRounds + kRounds; ++r) {
    if (i == 0 && r == kWarmupRounds + 1) t0 = example::globaltimer();
    const unsigned wanted = i == 0 ? r - 1 : r;
    unsigned polls = 0;
    while (atomicCAS(mine, wanted, wanted) != wanted)
      if (++polls % 1024 == 0 && example::globaltimer() - start > example::kWaitBudgetNs) return;
    atomicCAS(next, r - 1, r);
  }
  if (i == 0) {
    unsigned polls = 0;  // the last round's ring closes
    while (atomicCAS(mine, kWarmupRounds + kRounds, kWarmupRounds + kRounds) != kWarmupRounds + kRounds)
      if (++polls % 1024 == 0 && example::globaltimer() - start > example::kWaitBudgetNs) return;
    *elapsed_ns = example::globaltimer() - t0;
    *ok = 1;
  }
}

double ns_per_handover(const std::vector<unsigned*>& flags, int* ring_sm, const example::OneBlockPerSm& shape) {
  unsigned** d_flags;
  unsigned long long* elapsed;
  int* ok;
  EXAMPLE_CHECK(cudaMalloc(&d_flags, kRing * sizeof(unsigned*)));
  EXAMPLE_CHECK(cudaMemcpy(d_flags, flags.data(), kRing * sizeof(unsigned*), cudaMemcpyHostToDevice));
  for (unsigned* f : flags) EXAMPLE_CHECK(cudaMemset(f, 0, sizeof(unsigned)));
  EXAMPLE_CHECK(cudaMallocManaged(&elapsed, sizeof *elapsed));
  EXAMPLE_CHECK(cudaMallocManaged(&ok, sizeof *ok));
  *ok = 0;
  void* args[] = {&d_flags, &ring_sm, &elapsed, &ok};
  EXAMPLE_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(chain), shape.blocks, 1, args, shape.smem));
  EXAMPLE_CHECK(cudaDeviceSynchronize());
  if (!*ok) {
    std::fprintf(stderr, "the chain did not complete\n");
    std::exit(1);
  }
  const double ns = static_cast<double>(*elapsed) / (static_cast<double>(kRounds) * kRing);
  EXAMPLE_CHECK(cudaFree(d_flags));
  EXAMPLE_CHECK(cudaFree(elapsed));
  EXAMPLE_CHECK(cudaFree(ok));
  return ns;
}

}  // namespace

int main(int argc, char** argv) {
  const int gpu = argc > 1 ? std::atoi(argv[1]) : 0;
  const example::OneBlockPerSm shape = example::one_block_per_sm(gpu, chain);
  const cumap::place::Chip chip = cumap::place::Chip::discover(gpu);
  // The ring: kRing SMs of side 0, by id, as a program's tiles might land.
  std::vector<int> ring;
  for (int sm : chip.sms())
    if (chip.side_of(sm) == 0 && ring.size() < kRing) ring.push_back(sm);
  if (ring.size() < kRing) {
    std::fprintf(stderr, "side 0 has fewer than %d SMs\n", kRing);
    return 1;
  }
  int* ring_sm;
  EXAMPLE_CHECK(cudaMalloc(&ring_sm, kRing * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(ring_sm, ring.data(), kRing * sizeof(int), cudaMemcpyHostToDevice));
  std::printf("GPU %d (serial %s): a ring of %d SMs of side 0\n", gpu, chip.serial().c_str(), kRing);

  // As a careful program lays them out: one flag per 128-byte line, in a
  // row, at four places of four allocations.
  constexpr std::size_t kBytes = 64 << 10;
  std::vector<unsigned*> buffers(4);
  for (unsigned*& buffer : buffers) EXAMPLE_CHECK(cudaMalloc(&buffer, kBytes));
  std::vector<double> unplaced, placed;
  for (unsigned* buffer : buffers)
    for (std::size_t offset = 0; offset < kBytes; offset += 16 << 10) {
      std::vector<unsigned*> flags;
      for (int i = 0; i < kRing; ++i) flags.push_back(buffer + (offset + 128 * i) / sizeof(unsigned));
      unplaced.push_back(ns_per_handover(flags, ring_sm, shape));
    }
  // Placed: flag i for its writer (member i - 1) and its poller (member i).
  cumap::place::LinePool pool = chip.classify(buffers.front(), kBytes);
  for (int repeat = 0; repeat < 4; ++repeat) {
    std::vector<unsigned*> flags;
    for (int i = 0; i < kRing; ++i)
      flags.push_back(pool.for_pair(ring[(i + kRing - 1) % kRing], ring[i]).pointer<unsigned>());
    placed.push_back(ns_per_handover(flags, ring_sm, shape));
  }
  example::print_result("producer/consumer chain", "ns per hand-over", unplaced, placed);
  for (unsigned* buffer : buffers) EXAMPLE_CHECK(cudaFree(buffer));
  EXAMPLE_CHECK(cudaFree(ring_sm));
  return 0;
}
