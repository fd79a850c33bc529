// Runs on two NVIDIA GPUs that reach each other's memory; skips with the
// reason elsewhere (one GPU, none, or no peer access): a map across GPUs,
// and `cumap barrier` and `cumap contention` across them.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "backends/cuda/cuda_runtime_real.hpp"
#include "core/stats.hpp"
#include "cumap/error.hpp"
#include "gpu_available.hpp"
#include "report/read/csv_records.hpp"
#include "run/sync_run.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace two_gpus_device_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

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

constexpr std::uint64_t kLine = protocol::kLineBytes;

// A barrier or contention case of (GPU, SM) participants, its counter and
// release flag in lines 0 and 2 of `counter_gpu`'s arena.
SyncCase sync_case(BarrierImpl impl, std::vector<UnitRef> participants, int counter_gpu) {
  SyncCase c;
  c.impl = impl;
  c.participants = std::move(participants);
  c.counter_gpu = counter_gpu;
  c.counter = 0;
  c.release = 2 * kLine;
  c.episodes = 200;
  c.warmup = 20;
  return c;
}

SyncPlan sync_plan_of(std::vector<SyncCase> cases, double timeout_ms) {
  SyncPlan p;
  p.cases = std::move(cases);
  p.timeout_ms = timeout_ms;
  return p;
}

// Every construction across the two GPUs completes with a latency between a
// signal inside one GPU and a timeout: the counter and flag on either GPU,
// two-level by GPU whose leaders meet by exchange, contended adds.
TEST(DeviceTwoGpus, EveryBarrierAcrossGpusCompletesTwoLevelByExchange) {
  CUMAP_REQUIRE_TWO_GPUS();
  auto b = two_gpus();
  const std::vector<UnitRef> four{{0, 0}, {1, 0}, {0, 1}, {1, 1}};
  SyncCase two_level = sync_case(BarrierImpl::TwoLevel, four, 0);
  two_level.group_of = {0, 1, 0, 1};
  two_level.group_gpu = {0, 1};
  two_level.group_counter = {4 * kLine, 4 * kLine};
  two_level.group_release = {6 * kLine, 6 * kLine};
  two_level.group_exchange = {8 * kLine, 10 * kLine};
  two_level.counter = two_level.group_exchange[0];
  SyncCase add = sync_case(BarrierImpl::Counter, four, 1);
  add.contention = true;
  add.op = ContentionOp::Add;
  add.episodes = 20;
  const SyncMeasurements m = measure_sync_plan(*b, 
      sync_plan_of({sync_case(BarrierImpl::Counter, four, 0), sync_case(BarrierImpl::Flag, four, 1), two_level, add},
                   500),
      nullptr);
  ASSERT_EQ(m.cases.size(), 4u);
  for (std::size_t i = 0; i < m.cases.size(); ++i) {
    const SyncMeasurement& c = m.cases[i];
    ASSERT_FALSE(c.timed_out) << "case " << i;
    ASSERT_FALSE(c.unsupported) << "case " << i << ": " << c.why;
    ASSERT_FALSE(c.ns.empty()) << "case " << i;
    EXPECT_GT(median(c.ns), 50.0) << "case " << i;
    EXPECT_LT(median(c.ns), 50000.0) << "case " << i;
  }
  EXPECT_GT(m.cases[3].ops_per_us, 0.0);
}

// A participant that never arrives, on the other GPU: the case times out
// within its budget on both GPUs and the next case runs.
TEST(DeviceTwoGpus, ASilentParticipantOnTheOtherGpuTimesOutAndTheNextCaseRuns) {
  CUMAP_REQUIRE_TWO_GPUS();
  std::vector<std::unique_ptr<cuda::CudaRuntime>> runtimes;
  runtimes.push_back(cuda::make_real_cuda_runtime(0));
  runtimes.push_back(cuda::make_real_cuda_runtime(1));
  auto b = cuda::make_cuda_backend_on(std::move(runtimes), cuda::CudaTestHooks{3});
  const auto t0 = std::chrono::steady_clock::now();
  const SyncMeasurements m = measure_sync_plan(*b, 
      sync_plan_of({sync_case(BarrierImpl::Flag, {{0, 0}, {1, 3}}, 0),
                    sync_case(BarrierImpl::Counter, {{0, 1}, {1, 2}}, 1)},
                   20),
      nullptr);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(m.cases.size(), 2u);
  EXPECT_TRUE(m.cases[0].timed_out);
  EXPECT_FALSE(m.cases[1].timed_out);
  EXPECT_EQ(m.cases[1].ns.size(), 200u);
  EXPECT_LT(secs, 5.0);
}

// The cumap binary: $CUMAP_BINARY, else where the build puts it relative to
// this test binary (as cli_on_gpu_test finds it).
std::filesystem::path cumap_binary() {
  if (const char* env = std::getenv("CUMAP_BINARY")) return env;
  return std::filesystem::read_symlink("/proc/self/exe").parent_path() / CUMAP_BINARY_FROM_TEST;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Runs `cumap COMMAND` across GPUs 0 and 1 on eight SMs of each, few
// launches, and checks what it wrote: exit 0 (3 would mean a case timed
// out), meta.json complete with no case timed out, and every row of the CSV
// measured but grid.sync(), which cannot span GPUs; the counter on each GPU.
void run_across_two_gpus(const std::string& command, const std::string& what_column,
                         const std::set<std::string>& counter_gpus) {
  const auto binary = cumap_binary();
  if (!std::filesystem::exists(binary)) GTEST_SKIP() << "no cumap binary at " << binary << " (set CUMAP_BINARY)";
  const test::TempDir tmp;
  const auto dir = tmp / "out";
  const std::string cmd = binary.string() + " " + command +
                          " --backend cuda --devices 0,1 --units 0-7 --launches 5 --episodes 50 --quiet --out " +
                          dir.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const auto meta = nlohmann::json::parse(read_file(dir / "meta.json"));
  EXPECT_TRUE(meta.at("complete").get<bool>());
  EXPECT_EQ(meta.at("cases").at("timed_out").get<int>(), 0);
  const std::vector<CsvRecord> records = read_csv_records(read_file(dir / (command + ".csv")));
  ASSERT_GT(records.size(), 1u);
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < records[0].fields.size(); ++i) col[records[0].fields[i]] = i;
  ASSERT_TRUE(col.contains("counter_gpu")) << "a run across GPUs names the counter's GPU";
  std::set<std::string> gpus;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const std::vector<std::string>& f = records[r].fields;
    const std::string& what = f.at(col.at(what_column));
    SCOPED_TRACE(what + " k=" + f.at(col.at("k")) + " " + f.at(col.at("set")) + " " + f.at(col.at("counter_home")) +
                 " " + f.at(col.at("counter_gpu")));
    EXPECT_EQ(f.at(col.at("timeouts")), "0");
    if (what == "platform") {
      EXPECT_EQ(f.at(col.at("note")).rfind("not supported here: grid.sync()", 0), 0u) << f.at(col.at("note"));
      continue;
    }
    EXPECT_EQ(f.at(col.at("note")), "");
    const double ns = std::stod(f.at(col.at("median_ns")));
    EXPECT_GT(ns, 10.0);
    EXPECT_LT(ns, 100000.0);
    gpus.insert(f.at(col.at("counter_gpu")));
  }
  EXPECT_EQ(gpus, counter_gpus);
}

TEST(DeviceTwoGpus, BarrierAcrossBothGpusMeasuresEveryCase) {
  CUMAP_REQUIRE_TWO_GPUS();
  run_across_two_gpus("barrier", "implementation", {"g0", "g1", "each"});
}

TEST(DeviceTwoGpus, ContentionAcrossBothGpusMeasuresEveryCase) {
  CUMAP_REQUIRE_TWO_GPUS();
  run_across_two_gpus("contention", "op", {"g0", "g1"});
}

}  // namespace
}  // namespace cumap
