// bench_harness_vs_minimal: does cumap's harness add anything to what it
// measures? For each pair, in one process and on the SAME flag words (the
// flag's L2 home changes the answer, so separate processes are not
// comparable), it times
//   harness: cumap's persistent kernel (launch_pingpong, ordered pairs), and
//   minimal: a hand-written two-block CAS ping-pong with nothing around it.
//
// The harness runs twice: all pairs in one launch (as cumap does) and each
// pair in a launch of its own (no other pair's blocks waiting their turn).
//
// usage: bench_harness_vs_minimal ITERS SAMPLES A:B [A:B ...]
// prints: a b harness alone minimal diff%(harness-minimal) diff%(alone-minimal)
//         (cycles per round trip, medians over samples)
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/launch_buffers.hpp"
#include "backends/cuda/pingpong_launch.hpp"
#include "minimal_pingpong.hpp"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cumap::cuda;
  if (argc < 4) {
    std::fprintf(stderr, "usage: bench_harness_vs_minimal ITERS SAMPLES A:B [A:B ...]\n");
    return 2;
  }
  const int iters = std::atoi(argv[1]), samples = std::atoi(argv[2]);
  std::vector<DevicePair> pairs;
  for (int i = 3; i < argc; ++i) {
    DevicePair p{};
    if (std::sscanf(argv[i], "%d:%d", &p.a, &p.b) != 2) return 2;
    pairs.push_back(p);
  }
  try {
    cudaDeviceProp prop{};
    CUMAP_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    const std::size_t smem = prop.sharedMemPerBlockOptin - 1024;
    const int sms = prop.multiProcessorCount;
    prepare_pingpong_kernels(smem);
    CUMAP_CUDA_CHECK(prepare_minimal_pingpong(smem));
    Stream stream;
    DeviceBuffer<std::uint32_t> flags(flag_buffer_words(1));
    flags.zero(stream.get());
    const FlagOffsets at = flag_offsets(0, cumap::Placement::SameLine);
    unsigned* first = flags.get() + at.first;
    unsigned* second = flags.get() + at.second;

    // Harness: persistent launches, a always pings.
    LaunchBuffers buffers(pairs.size(), samples, sms, std::max(sms, 1024));
    PingPongParams pp{};
    pp.iters = iters;
    pp.samples = samples;
    pp.warmup = 20;
    pp.ordered = 1;
    pp.probe = 0;
    pp.wait_budget_cycles = 2'000'000'000ull;
    pp.pair_budget_cycles = 20'000'000'000ull;
    pp.pair_ns_estimate = static_cast<unsigned>((iters * samples + 21) * 700);
    pp.flag_first = first;
    pp.flag_second = second;
    auto harness = [&](const std::vector<DevicePair>& list) {
      flags.zero(stream.get());  // the minimal kernel leaves its last values behind
      buffers.prepare(pp, list, stream.get());
      launch_pingpong(pp, sms, smem, stream.get());
      CUMAP_CUDA_CHECK(cudaGetLastError());
      CUMAP_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      if (buffers.abort_code(stream.get()) != kNoAbort) throw std::runtime_error("harness launch aborted");
      const LaunchRecords rec = buffers.records(list.size(), samples, stream.get());
      std::vector<double> medians;
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (rec.status[i] != kPairOk) throw std::runtime_error("harness pair timed out");
        std::vector<double> h;
        for (int s = 0; s < samples; ++s) h.push_back(static_cast<double>(rec.sample_cycles[i * samples + s]) / iters);
        medians.push_back(median(h));
      }
      return medians;
    };
    const std::vector<double> together = harness(pairs);

    DeviceBuffer<unsigned long long> out(samples);
    std::printf("a b harness alone minimal diff%% diff_alone%%\n");
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const double alone = harness({pairs[i]})[0];
      std::vector<double> m;
      for (int rep = 0; rep < 2; ++rep) {  // the first launch warms up, the second counts
        flags.zero(stream.get());
        CUMAP_CUDA_CHECK(launch_minimal_pingpong(first, second, pairs[i].a, pairs[i].b, iters, samples, out.get(),
                                                 sms, smem, stream.get()));
        CUMAP_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      }
      for (unsigned long long c : out.download(samples, stream.get())) m.push_back(static_cast<double>(c) / iters);
      const double hm = together[i], mm = median(m);
      std::printf("%d %d %.1f %.1f %.1f %+.2f %+.2f\n", pairs[i].a, pairs[i].b, hm, alone, mm, 100.0 * (hm - mm) / mm,
                  100.0 * (alone - mm) / mm);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_harness_vs_minimal: %s\n", e.what());
    return 1;
  }
}
