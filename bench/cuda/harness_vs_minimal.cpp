// bench_harness_vs_minimal: does cumap's harness add anything to what it
// measures? For each pair, in one process and on the SAME flag words (the
// flag's L2 home changes the answer, so separate processes are not
// comparable), it times
//   harness: cumap's persistent kernel (launch_pingpong, ordered pairs, one
//            pair per round: the serial schedule), and
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
#include "backends/cuda/launches.hpp"
#include "minimal_pingpong.hpp"

namespace {

constexpr std::size_t protocol_line_words = cumap::protocol::kLineBytes / cumap::protocol::kFlagBytes;

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
    if (std::sscanf(argv[i], "%d:%d", &p.a, &p.b) != 2) return 2;  // flag words and round are set per launch
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
    // Both flags in one line at the start of a buffer (same-line placement).
    DeviceBuffer<std::uint32_t> flags(protocol_line_words);
    flags.zero(stream.get());
    unsigned* first = flags.get();
    unsigned* second = flags.get() + 1;

    // Harness: persistent launches, one pair per round (the serial
    // schedule), a always pings.
    LaunchControl control(sms, std::max(sms, 1024));
    PingPongParams pp{};
    pp.settings.counts = {iters, samples, 20, true};
    pp.settings.probe = cumap::protocol::kCas;
    pp.settings.wait_budget_cycles = 2'000'000'000ull;
    pp.settings.round_budget_cycles = 20'000'000'000ull;
    pp.settings.round_ns_estimate = static_cast<unsigned>((iters * samples + 21) * 700);
    // A launch group of one GPU.
    pp.self = 0;
    pp.group_size = 1;
    pp.group_blocks = static_cast<unsigned>(sms);
    pp.arenas[0] = flags.get();
    pp.controls[0] = control.words();
    auto harness = [&](const std::vector<DevicePair>& list) {
      flags.zero(stream.get());  // the minimal kernel leaves its last values behind
      LaunchPairs lp;
      for (std::size_t i = 0; i < list.size(); ++i) {
        lp.pairs.push_back({list[i].a, list[i].b, 0, 0, 0, 0, 1, static_cast<int>(i)});
        lp.round_starts.push_back(static_cast<unsigned>(i));
      }
      lp.round_starts.push_back(static_cast<unsigned>(list.size()));
      PingPongBuffers buffers(list.size(), list.size(), samples);
      DeviceBuffer<unsigned> sides_done(list.size());
      sides_done.zero(stream.get());
      buffers.prepare(pp, lp, stream.get());
      pp.sides_done[0] = sides_done.get();  // a group of one: the flags are on member 0
      control.reset(stream.get());
      control.point(pp);
      launch_pingpong(pp, sms, smem, stream.get());
      CUMAP_CUDA_CHECK(cudaGetLastError());
      CUMAP_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      if (control.abort_code(stream.get()) != kNoAbort) throw std::runtime_error("harness launch aborted");
      const LaunchRecords rec = buffers.records(list.size(), stream.get());
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
