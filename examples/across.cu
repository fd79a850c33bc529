// Example 4: a flag two GPUs share (peer memory): an SM of GPU 0 and an SM
// of GPU 1 ping-pong on it over the link. First as a program gets it: SM 0
// of each GPU, the flag at lines of plain allocations on either GPU; then
// placed by cumap::place: the SMs' sides, the GPU that holds the flag and
// its line's class chosen by the home and remote tables. Prints one-way ns.
//   example_across [GPU_A GPU_B]
#include <cumap/place.hpp>

#include <array>
#include <limits>

#include "example_common.cuh"

namespace {

constexpr int kWarmup = 64;
constexpr int kRoundTrips = 1000;

// The block on SM `sm` of this GPU plays `role` (0 pings, 1 answers) on the
// line at `line` (another GPU's memory or this one's), with system-scope
// atomics.
__global__ void across(unsigned* line, int sm, int role, unsigned long long* elapsed_ns, int* ok) {
  extern __shared__ unsigned char one_block_per_sm[];
  (void)one_block_per_sm;
  if (threadIdx.x != 0 || static_cast<int>(example::smid()) != sm) return;
  unsigned* const ping = line;
  unsigned* const pong = line + 1;
  const unsigned long long start = example::globaltimer();
  unsigned long long t0 = 0;
  for (unsigned k = 1; k <= kWarmup + kRoundTrips; ++k) {
    if (k == kWarmup + 1 && role == 0) t0 = example::globaltimer();
    unsigned* const send = role == 0 ? ping : pong;
    unsigned* const wait = role == 0 ? pong : ping;
    if (role == 0) atomicCAS_system(send, k - 1, k);
    unsigned polls = 0;
    while (atomicCAS_system(wait, k, k) != k)
      if (++polls % 1024 == 0 && example::globaltimer() - start > example::kWaitBudgetNs) return;
    if (role == 1) atomicCAS_system(send, k - 1, k);
  }
  if (role == 0) *elapsed_ns = example::globaltimer() - t0;
  *ok = 1;
}

struct Gpus {
  std::array<int, 2> ordinal{};
  std::array<example::OneBlockPerSm, 2> shape{};
};

// One-way ns between SM `x` of the first GPU and SM `y` of the second on `line`.
double one_way_ns(unsigned* line, int x, int y, const Gpus& g) {
  unsigned long long* elapsed;
  int* ok;
  EXAMPLE_CHECK(cudaSetDevice(g.ordinal[0]));
  EXAMPLE_CHECK(cudaMallocManaged(&elapsed, sizeof *elapsed));
  EXAMPLE_CHECK(cudaMallocManaged(&ok, 2 * sizeof *ok));
  ok[0] = ok[1] = 0;
  EXAMPLE_CHECK(cudaMemset(line, 0, 8));
  EXAMPLE_CHECK(cudaDeviceSynchronize());
  const std::array<int, 2> sm{x, y};
  for (int role = 0; role < 2; ++role) {
    EXAMPLE_CHECK(cudaSetDevice(g.ordinal[role]));
    int* mine = ok + role;
    int s = sm[role], r = role;
    void* args[] = {&line, &s, &r, &elapsed, &mine};
    // Both kernels run at once: each waits for the other on the line.
    EXAMPLE_CHECK(cudaLaunchKernel(reinterpret_cast<void*>(across), g.shape[role].blocks, 1, args, g.shape[role].smem));
  }
  for (int role = 0; role < 2; ++role) {
    EXAMPLE_CHECK(cudaSetDevice(g.ordinal[role]));
    EXAMPLE_CHECK(cudaDeviceSynchronize());
  }
  if (!ok[0] || !ok[1]) {
    std::fprintf(stderr, "SM %d of GPU %d and SM %d of GPU %d did not complete\n", x, g.ordinal[0], y, g.ordinal[1]);
    std::exit(1);
  }
  const double ns = static_cast<double>(*elapsed) / kRoundTrips / 2;
  EXAMPLE_CHECK(cudaFree(elapsed));
  EXAMPLE_CHECK(cudaFree(ok));
  return ns;
}

}  // namespace

int main(int argc, char** argv) {
  Gpus g;
  g.ordinal = {argc > 2 ? std::atoi(argv[1]) : 0, argc > 2 ? std::atoi(argv[2]) : 1};
  for (int i = 0; i < 2; ++i) g.shape[i] = example::one_block_per_sm(g.ordinal[i], across);
  for (int i = 0; i < 2; ++i) {
    int can = 0;
    EXAMPLE_CHECK(cudaDeviceCanAccessPeer(&can, g.ordinal[i], g.ordinal[1 - i]));
    if (!can) {
      std::fprintf(stderr, "GPU %d cannot reach GPU %d's memory\n", g.ordinal[i], g.ordinal[1 - i]);
      return 1;
    }
  }
  // The library opens peer access between the GPUs (cumap's discovery across them).
  const cumap::place::System system = cumap::place::System::discover({g.ordinal[0], g.ordinal[1]});
  const cumap::place::Chip& a = system.chip(g.ordinal[0]);
  const cumap::place::Chip& b = system.chip(g.ordinal[1]);
  std::printf("GPUs %d and %d (serials %s, %s)\n", g.ordinal[0], g.ordinal[1], a.serial().c_str(), b.serial().c_str());

  // As a program gets it: SM 0 of each, flags at lines of allocations on both GPUs.
  constexpr std::size_t kBytes = 64 << 10;
  std::array<std::vector<unsigned*>, 2> buffers;
  for (int i = 0; i < 2; ++i) {
    EXAMPLE_CHECK(cudaSetDevice(g.ordinal[i]));
    buffers[i].resize(2);
    for (unsigned*& buffer : buffers[i]) EXAMPLE_CHECK(cudaMalloc(&buffer, kBytes));
  }
  const int x0 = a.sms().front(), y0 = b.sms().front();
  std::vector<double> unplaced, placed;
  for (int i = 0; i < 2; ++i)
    for (unsigned* buffer : buffers[i])
      for (std::size_t offset = 0; offset < kBytes; offset += 16 << 10)
        unplaced.push_back(one_way_ns(buffer + offset / sizeof(unsigned), x0, y0, g));

  // Placed: the side of each SM, then the GPU and class of the line, by
  // what the tables predict; the lines from the first allocation on each GPU.
  std::array<cumap::place::LinePool, 2> pools{a.classify(buffers[0].front(), kBytes),
                                              b.classify(buffers[1].front(), kBytes)};
  const auto first_of_side = [](const cumap::place::Chip& chip, int side) {
    for (int sm : chip.sms())
      if (chip.side_of(sm) == side) return sm;
    return chip.sms().front();
  };
  int x = x0, y = y0;
  double best = std::numeric_limits<double>::infinity();
  for (int sx = 0; sx < a.class_count(); ++sx)
    for (int sy = 0; sy < b.class_count(); ++sy) {
      const int cx = first_of_side(a, sx), cy = first_of_side(b, sy);
      for (int i = 0; i < 2; ++i)
        for (int c = 0; c < system.chip(g.ordinal[i]).class_count(); ++c) {
          const double ns = system.latency_ns({g.ordinal[0], cx}, g.ordinal[i], c) +
                            system.latency_ns({g.ordinal[1], cy}, g.ordinal[i], c);
          if (ns < best) best = ns, x = cx, y = cy;
        }
    }
  std::printf("placed: SM %d (side %d) of GPU %d and SM %d (side %d) of GPU %d\n", x, a.side_of(x), g.ordinal[0], y,
              b.side_of(y), g.ordinal[1]);
  const std::vector<cumap::place::LinePool*> pool_list{&pools[0], &pools[1]};
  for (int i = 0; i < 16; ++i) {
    const cumap::place::Line line = system.for_pair(pool_list, {g.ordinal[0], x}, {g.ordinal[1], y});
    if (i == 0) std::printf("placed lines: on GPU %d, home class %d\n", line.gpu, line.home_class);
    placed.push_back(one_way_ns(line.pointer<unsigned>(), x, y, g));
  }
  example::print_result("across GPUs one-way", "ns", unplaced, placed);
  for (int i = 0; i < 2; ++i)
    for (unsigned* buffer : buffers[i]) EXAMPLE_CHECK(cudaFree(buffer));
  return 0;
}
