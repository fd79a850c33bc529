// Runs on two NVIDIA GPUs that reach each other's memory; skips with the
// reason elsewhere (one GPU, none, or no peer access): a map across GPUs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "backends/cuda/cuda_backend.hpp"
#include "cumap/error.hpp"
#include "gpu_available.hpp"

namespace cumap {
namespace {

// Why a map across two GPUs cannot run here, or "".
std::string why_not_two_gpus() {
  if (const std::string why = why_no_gpu(); !why.empty()) return why;
  if (cuda_device_count() < 2)
    return "one NVIDIA GPU: the map across GPUs needs two (run on a machine with two, e.g. two H200s over NVLink)";
  return "";
}

#define CUMAP_REQUIRE_TWO_GPUS() CUMAP_SKIP_WITH_REASON(why_not_two_gpus())

std::unique_ptr<Backend> two_gpus() {
  DeviceSelection s;
  s.backend = BackendKind::Cuda;
  s.devices = {0, 1};
  return make_cuda_backend(s);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

TEST(DeviceTwoGpus, UnitsOfBothGpusAndPeerAccess) {
  CUMAP_REQUIRE_TWO_GPUS();
  auto b = two_gpus();
  const DeviceInfo d = b->device();
  const std::vector<int> units = b->units();
  EXPECT_EQ(static_cast<int>(units.size()), d.unit_count);
  EXPECT_TRUE(std::any_of(units.begin(), units.end(), [](int u) { return u >= kDeviceUnitStride; }));
  ASSERT_TRUE(d.extra.contains("gpus"));
  EXPECT_EQ(d.extra["gpus"].size(), 2u);
  EXPECT_EQ(d.extra["peer_access"].size(), 2u);
  EXPECT_EQ(b->capabilities().max_pairs_per_round, d.unit_count / 2);
}

// Pairs of one GPU, pairs across with the flags on each side, in rounds that
// run on both GPUs at once: all complete, the pairs across cost several
// times the pairs inside, and concurrency on both GPUs changes no value much.
TEST(DeviceTwoGpus, PairsAcrossCompleteInConcurrentRoundsOnBothSides) {
  CUMAP_REQUIRE_TWO_GPUS();
  auto b = two_gpus();
  MeasurementPlan plan;
  plan.units = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 0}, {1, 1}, {1, 2}, {1, 3}};
  plan.arena.bytes = 64 * 1024;
  plan.counts = {50, 3, 5, false};
  plan.timeout_ms = 500;
  const auto pair = [](UnitRef a, UnitRef b, int flag_device, std::uint64_t line) {
    return PlannedPair{a, b, {line * protocol::kLineBytes, line * protocol::kLineBytes + 4, flag_device}, 0};
  };
  // Round 0: two pairs on each GPU at once. Round 1: four across, flags on
  // GPU 0 for two of them and on GPU 1 for the others. Round 2: one across alone.
  plan.rounds = {
      {{pair({0, 0}, {0, 1}, 0, 0), pair({0, 2}, {0, 3}, 0, 1), pair({1, 0}, {1, 1}, 1, 0), pair({1, 2}, {1, 3}, 1, 1)}},
      {{pair({0, 0}, {1, 0}, 0, 2), pair({0, 1}, {1, 1}, 1, 2), pair({0, 2}, {1, 2}, 0, 3), pair({0, 3}, {1, 3}, 1, 3)}},
      {{pair({0, 0}, {1, 0}, 1, 4)}}};
  const Measurements m = b->measure(plan, nullptr);
  ASSERT_EQ(m.pairs.size(), 9u);
  std::vector<double> inside, across;
  for (const PairMeasurement& p : m.pairs) {
    ASSERT_FALSE(p.timed_out) << "GPU " << p.a.device << " SM " << p.a.unit << " - GPU " << p.b.device << " SM "
                              << p.b.unit;
    ASSERT_EQ(p.rtt_ns.size(), 3u);
    (p.a.device == p.b.device ? inside : across).push_back(median(p.rtt_ns));
  }
  EXPECT_LT(median(inside), 2000.0);
  EXPECT_GT(median(across), 1.5 * median(inside)) << "a round trip over the link costs more than inside one GPU";
  EXPECT_LT(median(across), 50000.0);
  EXPECT_GT(m.stats.device_seconds, 0.0);
}

TEST(DeviceTwoGpus, ProbeLinesOfEachGpuFromItsOwnSms) {
  CUMAP_REQUIRE_TWO_GPUS();
  auto b = two_gpus();
  for (int device : {0, 1}) {
    LineProbePlan plan;
    plan.device = device;
    plan.units = {{device, 0}, {device, 1}};
    for (std::uint64_t l = 0; l < 8; ++l) plan.lines.push_back(l * 4224);
    plan.arena.bytes = 8 * 4224;
    plan.chain = 8;
    const LineLatencyTable t = b->probe_lines(plan, nullptr);
    for (double ns : t.ns) EXPECT_TRUE(std::isfinite(ns) && ns > 10.0 && ns < 5000.0) << ns;
  }
}

}  // namespace
}  // namespace cumap
