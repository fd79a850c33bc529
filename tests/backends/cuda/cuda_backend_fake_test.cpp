// The CUDA backend's orchestration against a fake runtime: launch slicing at
// round boundaries, decoding, timeouts, progress, the arena, line probing,
// and that opening the backend runs no kernel.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "cumap/error.hpp"
#include "fake_cuda_runtime.hpp"
#include "fake_rig.hpp"
#include "plan_fixtures.hpp"

namespace cumap::cuda {
namespace {

using testing::FakeCudaConfig;
using testing::FakeCudaRuntime;
using testing::plan_of;
using testing::serial_plan;

// Counts whose round (one pair's 200 001 round trips at the backend's guess
// of 700 ns) lasts longer than the 0.1 s a launch aims at: one round a launch.
protocol::Counts counts_with_rounds_per_launch_of_one() { return {100000, 2, 0, false}; }

TEST(CudaBackendFake, OpeningAndDescribingRunNoKernel) {
  Rig r = rig();
  const DeviceInfo d = r.backend->device();
  const Capabilities c = r.backend->capabilities();
  EXPECT_EQ(r.rt->census_launches + r.rt->calibrations + static_cast<int>(r.rt->pingpong_launches.size()), 0);
  EXPECT_EQ(d.backend, "cuda");
  EXPECT_EQ(d.unit_count, 8);
  EXPECT_DOUBLE_EQ(d.clock_hz, 1.98e9);
  EXPECT_EQ(c.max_pairs_per_round, 4);
  EXPECT_TRUE(c.l2_persist);
  EXPECT_TRUE(c.dsm);
  EXPECT_EQ(c.default_lines_per_class, 24);
  EXPECT_EQ(c.default_iters, 20);
  // The census happens once, on first use.
  EXPECT_EQ(r.backend->units(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(r.backend->units().size(), 8u);
  EXPECT_EQ(r.rt->census_launches, 1);
}

// Serials and neighbours come with the backend's DeviceInfo: nothing else
// has to patch them in.
TEST(CudaBackendFake, TheDeviceCarriesWhatNvmlSaysOfIt) {
  CudaTestHooks hooks;
  hooks.nvml_library = CUMAP_FAKE_NVML;
  Rig r = rig({}, hooks);
  const DeviceInfo d = r.backend->device();
  ASSERT_EQ(d.gpus.size(), 1u);
  EXPECT_EQ(d.gpus[0].pci_bus_id, "0000:65:00.0");
  EXPECT_EQ(d.gpus[0].serial, "FAKE65");
  EXPECT_TRUE(d.links.empty());
  ASSERT_EQ(d.neighbours.size(), 1u);
  EXPECT_TRUE(d.neighbours[0].known);
  EXPECT_EQ(d.neighbours[0].processes.size(), 20u);
}

TEST(CudaBackendFake, NoDsmBeforeHopper) {
  FakeCudaConfig cfg;
  cfg.cc_major = 8;
  EXPECT_FALSE(rig(cfg).backend->capabilities().dsm);
}

TEST(CudaBackendFake, LaunchesCutOnlyAtRoundBoundaries) {
  Rig r = rig();
  // 4 rounds of 2 pairs; the counts allow one round per launch.
  MeasurementPlan plan =
      plan_of({{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}, {{4, 5}, {6, 7}}});
  plan.counts = counts_with_rounds_per_launch_of_one();
  const Measurements m = r.backend->measure(plan, nullptr);
  ASSERT_EQ(r.rt->pingpong_launches.size(), 4u);
  for (const PingPongLaunch& l : r.rt->pingpong_launches) {
    EXPECT_EQ(l.pairs.pairs.size(), 2u);
    EXPECT_EQ(l.pairs.round_starts, (std::vector<unsigned>{0, 2}));
    EXPECT_EQ(l.pairs.round_width, 2u);
  }
  EXPECT_EQ(m.pairs.size(), 8u);
  EXPECT_EQ(m.stats.launches, 4);
}

TEST(CudaBackendFake, AStopBetweenLaunchesKeepsTheLaunchesDoneAndStartsNoOther) {
  Rig r = rig();
  MeasurementPlan plan =
      plan_of({{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}, {{4, 5}, {6, 7}}});
  plan.counts = counts_with_rounds_per_launch_of_one();
  int asked = 0;
  plan.stop = [&] { return ++asked >= 2; };  // after the second launch
  int progressed = 0;
  const Measurements m = r.backend->measure(plan, [&](std::size_t, std::size_t) { ++progressed; });
  EXPECT_TRUE(m.stopped);
  EXPECT_EQ(r.rt->pingpong_launches.size(), 2u) << "no launch started after the stop";
  EXPECT_EQ(m.pairs.size(), 4u) << "both launches' pairs, decoded";
  EXPECT_EQ(m.stats.launches, 2);
  EXPECT_EQ(progressed, 2);
  // The runtime holds no launch: another plan runs.
  plan.stop = nullptr;
  EXPECT_EQ(r.backend->measure(plan, nullptr).pairs.size(), 8u);
}

TEST(CudaBackendFake, ShortRoundsShareALaunch) {
  Rig r = rig();
  MeasurementPlan plan = serial_plan({0, 1, 2, 3, 4});  // 10 rounds of one pair
  plan.counts = {100, 2, 0, false};                      // 201 round trips: hundreds of rounds fit in 0.1 s
  const Measurements m = r.backend->measure(plan, nullptr);
  ASSERT_EQ(r.rt->pingpong_launches.size(), 1u);
  const LaunchPairs& lp = r.rt->pingpong_launches[0].pairs;
  EXPECT_EQ(lp.round_starts, (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(lp.round_width, 1u);
  EXPECT_EQ(m.pairs.size(), 10u);
}

TEST(CudaBackendFake, MeasurementsFollowThePlanWithTimingsInNs) {
  FakeCudaConfig cfg;
  cfg.round_ms = 20.0;  // launches long enough to time the clock themselves (1.5 cycles/ns)
  Rig r = rig(cfg);
  MeasurementPlan plan = plan_of({{{0, 1}, {2, 3}}, {{1, 2}}}, 40);
  plan.counts = {100, 3, 5, false};
  const Measurements m = r.backend->measure(plan, nullptr);
  ASSERT_EQ(m.pairs.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const PlannedPair& planned = i < 2 ? plan.rounds[0].pairs[i] : plan.rounds[1].pairs[0];
    EXPECT_EQ(m.pairs[i].a, planned.a);
    EXPECT_EQ(m.pairs[i].b, planned.b);
    EXPECT_EQ(m.pairs[i].tag, planned.tag);
    EXPECT_EQ(m.pairs[i].flags, planned.flags);
    EXPECT_EQ(m.pairs[i].round, i < 2 ? 0 : 1);
    EXPECT_FALSE(m.pairs[i].timed_out);
    ASSERT_EQ(m.pairs[i].rtt_cycles.size(), 3u);
    // Unordered: a pings 50 round trips at 600 cycles, b 50 at 700.
    EXPECT_DOUBLE_EQ(m.pairs[i].rtt_cycles[0], 650.0);
    EXPECT_DOUBLE_EQ(m.pairs[i].rtt_ns[0], 650.0 / 1.5);
    EXPECT_DOUBLE_EQ(m.pairs[i].cold_rtt_ns, 900.0 / 1.5);
  }
  EXPECT_NEAR(m.stats.clock_hz, 1.5e9, 1.0);
  EXPECT_DOUBLE_EQ(m.stats.device_seconds, 0.040);  // one launch of two rounds at 20 ms
  EXPECT_EQ(m.stats.launches, 1);
  EXPECT_DOUBLE_EQ(m.stats.extra["sm_clock_calibration_hz"].get<double>(), 1.6e9);
  EXPECT_EQ(m.stats.extra["blocks_per_launch"], 8);
  EXPECT_TRUE(m.stats.extra.contains("dynamic_shared_memory_per_block_bytes"));
  // The settings the kernel got.
  const PingPongSettings& s = r.rt->pingpong_launches[0].settings;
  EXPECT_EQ(s.counts.samples, 3);
  EXPECT_EQ(s.counts.warmup, 5);
  EXPECT_EQ(s.silent_sm, -1);
  EXPECT_FALSE(s.flush_l2);
}

TEST(CudaBackendFake, ShortLaunchesConvertWithTheCalibration) {
  Rig r = rig();  // 4 ms rounds: one 4 ms launch is too short to time the clock
  MeasurementPlan plan = plan_of({{{0, 1}}});
  const Measurements m = r.backend->measure(plan, nullptr);
  EXPECT_EQ(r.rt->calibrations, 1);
  EXPECT_DOUBLE_EQ(m.pairs[0].rtt_ns[0], 650.0 / 1.6);
  EXPECT_NEAR(m.stats.clock_hz, 1.6e9, 1.0);
  EXPECT_FALSE(m.stats.extra["clock_measured_by_launches"].get<bool>());
}

TEST(CudaBackendFake, TimedOutUnitIsReportedAndTheRunGoesOn) {
  FakeCudaConfig cfg;
  cfg.timeout_sm = 2;
  Rig r = rig(cfg);
  MeasurementPlan plan = plan_of({{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{4, 5}}});
  const Measurements m = r.backend->measure(plan, nullptr);
  ASSERT_EQ(m.pairs.size(), 5u);
  for (const PairMeasurement& p : m.pairs) {
    const bool involves = p.a.unit == 2 || p.b.unit == 2;
    EXPECT_EQ(p.timed_out, involves) << p.a.unit << "-" << p.b.unit;
    EXPECT_EQ(p.rtt_ns.empty(), involves);
    EXPECT_EQ(std::isnan(p.cold_rtt_ns), involves);
  }
}

TEST(CudaBackendFake, SilentSmHookReachesTheKernelOnly) {
  Rig r = rig({}, CudaTestHooks{3});
  const Measurements m = r.backend->measure(plan_of({{{0, 1}, {2, 3}}}), nullptr);
  EXPECT_EQ(r.rt->pingpong_launches.at(0).settings.silent_sm, 3);
  EXPECT_FALSE(m.pairs[0].timed_out);
  EXPECT_TRUE(m.pairs[1].timed_out);
}

TEST(CudaBackendFake, ProgressCountsRoundsUpToTheTotal) {
  Rig r = rig();
  MeasurementPlan plan = plan_of({{{0, 1}}, {{2, 3}}, {{4, 5}}});
  plan.counts = counts_with_rounds_per_launch_of_one();
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  r.backend->measure(plan, [&](std::size_t done, std::size_t total) { calls.emplace_back(done, total); });
  EXPECT_EQ(calls, (std::vector<std::pair<std::size_t, std::size_t>>{{1, 3}, {2, 3}, {3, 3}}));
}

TEST(CudaBackendFake, ArenaIsKeptUntilAPlanAsksForAnotherOne) {
  Rig r = rig();
  MeasurementPlan plan = plan_of({{{0, 1}}});
  r.backend->measure(plan, nullptr);
  r.backend->measure(plan, nullptr);
  EXPECT_EQ(r.rt->allocations, 2) << "the arena and the pairs' sides-done words, each once";
  const DeviceAddress base = r.rt->pingpong_launches[0].arenas.at(0);
  EXPECT_EQ(r.rt->pingpong_launches[1].arenas.at(0), base);
  EXPECT_EQ(base % kArenaAlignment, 0u);  // the fake's allocations are not aligned; the arena is
  // Every measure starts from zeroed flags, every launch from cleared sides-done words.
  EXPECT_EQ(r.rt->zeroes, 4);

  // Line probing on the same arena reuses it.
  LineProbePlan probe;
  probe.units = {{0, 0}};
  probe.lines = {0, 128};
  probe.arena = plan.arena;
  r.backend->probe_lines(probe, nullptr);
  EXPECT_EQ(r.rt->allocations, 2);
  EXPECT_EQ(r.rt->probe_launches.at(0).arena, base);

  // --flag-offset: a different arena, the old one given back.
  plan.arena.offset_bytes = 4096 + 128;
  r.backend->measure(plan, nullptr);
  EXPECT_EQ(r.rt->allocations, 3);
  EXPECT_EQ(r.rt->live_.size(), 2u) << "the new arena and the sides-done words";
  EXPECT_EQ(r.rt->pingpong_launches.back().arenas.at(0) % kArenaAlignment, 4096u + 128u);
}

TEST(CudaBackendFake, ArenaTooLargeForTheDeviceIsBadInput) {
  FakeCudaConfig cfg;
  cfg.free_memory_bytes = 1 << 20;
  Rig r = rig(cfg);
  MeasurementPlan plan = plan_of({{{0, 1}}});
  plan.arena.bytes = 4 << 20;
  EXPECT_THROW(r.backend->measure(plan, nullptr), UsageError);
  EXPECT_TRUE(r.rt->pingpong_launches.empty());
}

TEST(CudaBackendFake, UnknownSmOrForeignDeviceIsBadInput) {
  Rig r = rig();
  MeasurementPlan plan = plan_of({{{0, 9}}});
  EXPECT_THROW(r.backend->measure(plan, nullptr), UsageError);
  MeasurementPlan other = plan_of({{{0, 1}}});
  other.units[1].device = 1;
  EXPECT_THROW(r.backend->measure(other, nullptr), UsageError);
  EXPECT_TRUE(r.rt->pingpong_launches.empty());
}

TEST(CudaBackendFake, DsmPlansGoToTheClusterPathNotThePingPongKernel) {
  Rig r = rig();
  MeasurementPlan dsm = plan_of({{{0, 1}}});
  dsm.path = Path::Dsm;
  r.backend->measure(dsm, nullptr);
  EXPECT_EQ(r.rt->dsm_calls, 1);
  EXPECT_TRUE(r.rt->pingpong_launches.empty());
}

TEST(CudaBackendFake, AbandonedLaunchIsARuntimeFailure) {
  FakeCudaConfig cfg;
  cfg.abort_launch = kAbortWaitTimeout;
  Rig r = rig(cfg);
  try {
    r.backend->measure(plan_of({{{0, 1}}}), nullptr);
    FAIL() << "no exception";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("waited"), std::string::npos) << e.what();
  }
}

TEST(CudaBackendFake, FlushAndPersistAreSetUpAroundTheArena) {
  Rig r = rig();
  MeasurementPlan plan = plan_of({{{0, 1}}, {{2, 3}}});
  plan.flush_cache = true;
  plan.l2_persist = true;
  const Measurements m = r.backend->measure(plan, nullptr);
  const PingPongLaunch& l = r.rt->pingpong_launches.at(0);
  EXPECT_TRUE(l.settings.flush_l2);
  EXPECT_NE(l.flush_buffer, 0u);
  EXPECT_GE(l.flush_words * 4, 2u << 20);  // twice the fake's 1 MiB L2
  EXPECT_EQ(m.stats.extra["l2_persisting_window_bytes"], 64 * 1024);
  EXPECT_FALSE(r.rt->window_live);  // cleared when measure() returns
  // The flush buffer is kept too (arena, flush buffer, sides-done words).
  r.backend->measure(plan, nullptr);
  EXPECT_EQ(r.rt->allocations, 3);
}

TEST(CudaBackendFake, ProbeLinesFillsTheWholeTableByUnitTurns) {
  Rig r = rig();
  LineProbePlan plan;
  for (int u : {0, 1, 2, 3, 4, 5, 6, 7}) plan.units.push_back({0, u});
  for (std::uint64_t l = 0; l < 64; ++l) plan.lines.push_back(l * 128);
  plan.chain = 32;
  plan.repeats = 3;
  std::vector<std::size_t> progress;
  const LineLatencyTable t = r.backend->probe_lines(plan, [&](std::size_t done, std::size_t total) {
    EXPECT_EQ(total, 8u);
    progress.push_back(done);
  });
  ASSERT_EQ(t.ns.size(), 8u * 64u);
  for (std::size_t u = 0; u < 8; ++u)
    for (std::size_t l = 0; l < 64; ++l) {
      // The median of the fake's three jittered repeats is the latency itself.
      const double cycles = r.rt->cycles_to_line(static_cast<int>(u), static_cast<std::uint32_t>(l * 32));
      EXPECT_DOUBLE_EQ(t.cycles[u * 64 + l], cycles);
      EXPECT_TRUE(std::isfinite(t.ns[u * 64 + l]));
    }
  // Every unit probed exactly once, in plan order, in as few launches as the budget allows.
  std::vector<int> turns;
  for (const LineProbeLaunch& l : r.rt->probe_launches) turns.insert(turns.end(), l.turn_sms.begin(), l.turn_sms.end());
  EXPECT_EQ(turns, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(progress.back(), 8u);
  EXPECT_EQ(progress.size(), r.rt->probe_launches.size());
}

// One SM at a time (--home-serial), a launch holds the turns that fit its
// target duration; together, one launch holds every SM, all probing at once.
TEST(CudaBackendFake, ProbeLaunchesAreSlicedByUnit) {
  Rig r = rig();
  LineProbePlan plan;
  plan.together = false;
  for (int u : {0, 1, 2, 3, 4, 5, 6, 7}) plan.units.push_back({0, u});
  for (std::uint64_t l = 0; l < 512; ++l) plan.lines.push_back(l * 128);
  // 512 x 32 x 3 atomics at 300 ns = 14.7 ms a unit: 6 units in the first launch.
  std::vector<std::size_t> progress;
  r.backend->probe_lines(plan, [&](std::size_t done, std::size_t) { progress.push_back(done); });
  ASSERT_EQ(r.rt->probe_launches.size(), 2u);
  EXPECT_EQ(r.rt->probe_launches[0].turn_sms.size(), 6u);
  EXPECT_EQ(progress, (std::vector<std::size_t>{6, 8}));
  EXPECT_FALSE(r.rt->probe_launches[0].together);

  plan.together = true;
  r.rt->probe_launches.clear();
  r.backend->probe_lines(plan, nullptr);
  ASSERT_EQ(r.rt->probe_launches.size(), 1u);
  EXPECT_EQ(r.rt->probe_launches[0].turn_sms.size(), 8u);
  EXPECT_TRUE(r.rt->probe_launches[0].together);
}

TEST(CudaBackendFake, ProbeOfAnUnknownSmIsBadInput) {
  Rig r = rig();
  LineProbePlan plan;
  plan.units = {{0, 42}};
  plan.lines = {0};
  EXPECT_THROW(r.backend->probe_lines(plan, nullptr), UsageError);
}

}  // namespace
}  // namespace cumap::cuda

namespace cumap::cuda {
namespace {

// Two fake GPUs (ordinals 0 and 1) as one backend; views of both runtimes.
struct GroupRig {
  std::unique_ptr<Backend> backend;
  FakeCudaRuntime* gpu0;
  FakeCudaRuntime* gpu1;
};
GroupRig group_rig(FakeCudaConfig c0 = {}, FakeCudaConfig c1 = {}) {
  c0.ordinal = 0;
  c1.ordinal = 1;
  auto r0 = std::make_unique<FakeCudaRuntime>(std::move(c0));
  auto r1 = std::make_unique<FakeCudaRuntime>(std::move(c1));
  GroupRig g{nullptr, r0.get(), r1.get()};
  std::vector<std::unique_ptr<CudaRuntime>> runtimes;
  runtimes.push_back(std::move(r1));  // any order
  runtimes.push_back(std::move(r0));
  g.backend = make_cuda_backend_on(std::move(runtimes));
  return g;
}

TEST(CudaBackendFakeGroup, UnitsOfBothGpusByUnitIdAndPeerAccessBothWays) {
  GroupRig g = group_rig();
  const std::vector<int> units = g.backend->units();
  ASSERT_EQ(units.size(), 16u);
  EXPECT_EQ(units[0], 0);
  EXPECT_EQ(units[8], 100000);
  EXPECT_EQ(g.gpu0->peers_opened, (std::vector<int>{1}));
  EXPECT_EQ(g.gpu1->peers_opened, (std::vector<int>{0}));
  const DeviceInfo d = g.backend->device();
  EXPECT_EQ(d.name, "2 x Fake NVIDIA H100");
  EXPECT_EQ(d.unit_count, 16);
  EXPECT_EQ(d.extra["gpus"].size(), 2u);
  const Capabilities c = g.backend->capabilities();
  EXPECT_EQ(c.max_pairs_per_round, 8);
  EXPECT_FALSE(c.dsm) << "clusters never span GPUs";
}

TEST(CudaBackendFakeGroup, NoPeerAccessOrNoNativeAtomicsIsBadInputNamingTheGpus) {
  FakeCudaConfig no_access;
  no_access.peer_access = false;
  try {
    group_rig({}, no_access);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("GPU 1 cannot reach GPU 0"), std::string::npos) << e.what();
  }
  FakeCudaConfig no_atomics;
  no_atomics.peer_atomics = false;
  try {
    group_rig(no_atomics, {});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("without native atomics"), std::string::npos) << e.what();
  }
}

// One map pools its GPUs' classes and sides by number: another model (or
// compute capability) is another chip, refused as bad input in one line; a
// GPU named twice likewise.
TEST(CudaBackendFakeGroup, GpusOfDifferentModelsOrOneGpuTwiceAreBadInput) {
  FakeCudaConfig other_model;
  other_model.name = "Fake NVIDIA A100";
  try {
    group_rig({}, other_model);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("GPU 0 is a Fake NVIDIA H100"), std::string::npos) << what;
    EXPECT_NE(what.find("GPU 1 a Fake NVIDIA A100"), std::string::npos) << what;
    EXPECT_NE(what.find("one model"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "one line";
  }
  FakeCudaConfig other_capability;
  other_capability.cc_major = 8;
  EXPECT_THROW(group_rig({}, other_capability), UsageError);

  // The same ordinal twice, however the runtimes came to be.
  std::vector<std::unique_ptr<CudaRuntime>> twice;
  for (int i = 0; i < 2; ++i) twice.push_back(std::make_unique<FakeCudaRuntime>(FakeCudaConfig{}));
  try {
    make_cuda_backend_on(std::move(twice));
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("GPU 0 twice"), std::string::npos) << e.what();
  }
}

// A launch across both GPUs: each member gets the same pairs, its own
// member number, every member's arena and control words, one shared array
// of sides-done words; the pair's cycles are the two members' halves added.
TEST(CudaBackendFakeGroup, ALaunchRunsOnBothGpusAndTheirHalvesAddUp) {
  GroupRig g = group_rig();
  MeasurementPlan plan;
  plan.units = {{0, 2}, {1, 5}, {0, 3}, {1, 3}};
  plan.rounds = {{{PlannedPair{{0, 2}, {1, 5}, {0, 4, 1}, 7}, PlannedPair{{0, 3}, {1, 3}, {128, 132, 0}, 7}}}};
  plan.counts = {100, 2, 0, false};
  const Measurements m = g.backend->measure(plan, nullptr);
  ASSERT_EQ(g.gpu0->pingpong_launches.size(), 1u);
  ASSERT_EQ(g.gpu1->pingpong_launches.size(), 1u);
  EXPECT_EQ(g.gpu0->started, 2) << "the SM census, then the launch";
  EXPECT_EQ(g.gpu1->started, 2);
  const PingPongLaunch& l0 = g.gpu0->pingpong_launches[0];
  const PingPongLaunch& l1 = g.gpu1->pingpong_launches[0];
  EXPECT_EQ(l0.self, 0);
  EXPECT_EQ(l1.self, 1);
  EXPECT_EQ(l0.arenas, l1.arenas);
  EXPECT_NE(l0.arenas[0], l0.arenas[1]) << "each GPU has an arena of its own";
  EXPECT_EQ(l0.controls, (std::vector<DeviceAddress>{g.gpu0->control_words(), g.gpu1->control_words()}));
  EXPECT_EQ(l0.sides_done, l1.sides_done);
  ASSERT_EQ(l0.sides_done.size(), 2u) << "a pair counts its sides on the member that holds its flags";
  EXPECT_NE(l0.sides_done[0], l0.sides_done[1]);
  EXPECT_EQ(l0.group_blocks, 16u);
  ASSERT_EQ(l0.pairs.pairs.size(), 2u);
  EXPECT_EQ(l0.pairs.pairs[0].a_gpu, 0);
  EXPECT_EQ(l0.pairs.pairs[0].b_gpu, 1);
  EXPECT_EQ(l0.pairs.pairs[0].flag_gpu, 1);
  ASSERT_EQ(m.pairs.size(), 2u);
  // a pings 50 round trips at 600 cycles on GPU 0, b 50 at 700 on GPU 1.
  EXPECT_DOUBLE_EQ(m.pairs[0].rtt_cycles[0], 650.0);
  // The fake's launches are too short to time the clock: the calibration's 1.6 cycles/ns.
  EXPECT_DOUBLE_EQ(m.pairs[0].rtt_ns[0], 650.0 / 1.6);
  EXPECT_EQ(m.pairs[0].flags.device, 1);
  EXPECT_EQ(m.stats.extra["gpus"].size(), 2u);
}

TEST(CudaBackendFakeGroup, APlanOfOneGpuRunsOnThatGpuAlone) {
  GroupRig g = group_rig();
  MeasurementPlan plan;
  plan.units = {{1, 0}, {1, 1}};
  plan.rounds = {{{PlannedPair{{1, 0}, {1, 1}, {0, 4, 1}, 0}}}};
  plan.counts = {100, 2, 0, false};
  g.backend->measure(plan, nullptr);
  EXPECT_TRUE(g.gpu0->pingpong_launches.empty());
  ASSERT_EQ(g.gpu1->pingpong_launches.size(), 1u);
  EXPECT_EQ(g.gpu1->pingpong_launches[0].arenas.size(), 1u);
}

TEST(CudaBackendFakeGroup, DsmAndUnknownGpusAreBadInput) {
  GroupRig g = group_rig();
  MeasurementPlan dsm;
  dsm.path = Path::Dsm;
  EXPECT_THROW(g.backend->measure(dsm, nullptr), UsageError);
  MeasurementPlan third;
  third.units = {{2, 0}, {0, 1}};
  third.rounds = {{{PlannedPair{{2, 0}, {0, 1}, {0, 4, 0}, 0}}}};
  EXPECT_THROW(g.backend->measure(third, nullptr), UsageError);
  LineProbePlan probe;
  probe.device = 2;  // no such GPU in the group
  probe.units = {{0, 0}};
  probe.lines = {0};
  EXPECT_THROW(g.backend->probe_lines(probe, nullptr), UsageError);
}

// The placement library's classify: the line probe times memory the caller
// owns, where it is, if it is this GPU's device memory.
TEST(CudaBackendFake, ProbeOfCallersMemoryTimesItWhereItIsAndRefusesManagedOrHostMemory) {
  testing::FakeCudaConfig config;
  config.managed = {{0x7000'0000'0000, 1 << 20}};
  config.host = {{0x6000'0000'0000, 1 << 20}};
  Rig r = rig(config);
  const DeviceAddress mine = r.rt->allocate(64 << 10);
  LineProbePlan plan;
  plan.units = {{0, 0}, {0, 1}};
  plan.lines = {0, 128, 256};
  plan.arena.bytes = 64 << 10;
  plan.memory = mine;
  const LineLatencyTable t = r.backend->probe_lines(plan, nullptr);
  ASSERT_FALSE(r.rt->probe_launches.empty());
  EXPECT_EQ(r.rt->probe_launches.back().arena, mine) << "the caller's memory, not the flag arena";
  EXPECT_EQ(t.ns.size(), 6u);
  for (std::uintptr_t other : {std::uintptr_t{0x7000'0000'0000}, std::uintptr_t{0x6000'0000'0000},
                               std::uintptr_t{0x5000'0000'0000}}) {
    plan.memory = other;
    try {
      (void)r.backend->probe_lines(plan, nullptr);
      ADD_FAILURE() << "memory at " << other << " was probed";
    } catch (const UsageError& e) {
      const std::string why = e.what();
      EXPECT_TRUE(why.find("managed") != std::string::npos || why.find("host memory") != std::string::npos ||
                  why.find("no allocation") != std::string::npos)
          << why;
    }
  }
}

// The remote table: GPU 0's SMs time GPU 1's lines, running on GPU 0 with
// GPU 1's arena (a peer address) and system-scope atomics.
TEST(CudaBackendFakeGroup, AnotherGpusUnitsProbeTheLinesOverTheLink) {
  GroupRig g = group_rig();
  LineProbePlan probe;
  probe.device = 1;
  probe.units = {{0, 0}, {0, 3}};
  probe.lines = {0, 128};
  const LineLatencyTable t = g.backend->probe_lines(probe, nullptr);
  ASSERT_EQ(g.gpu0->probe_launches.size(), 1u) << "the chains run where the SMs are";
  const LineProbeLaunch& l = g.gpu0->probe_launches.back();
  EXPECT_TRUE(l.remote);
  EXPECT_EQ(l.turn_sms, (std::vector<int>{0, 3}));
  EXPECT_EQ(t.units, probe.units);
  EXPECT_EQ(t.ns.size(), 4u);
  for (double v : t.ns) EXPECT_TRUE(std::isfinite(v));
  // The arena is GPU 1's: the one its own probe would use.
  LineProbePlan own = probe;
  own.units = {{1, 0}};
  (void)g.backend->probe_lines(own, nullptr);
  ASSERT_FALSE(g.gpu1->probe_launches.empty());
  EXPECT_FALSE(g.gpu1->probe_launches.back().remote);
  EXPECT_EQ(g.gpu1->probe_launches.back().arena, l.arena);
}

}  // namespace
}  // namespace cumap::cuda
