// The barrier and contention sweeps across GPUs: each set built per GPU and
// interleaved, counters on each GPU in turn chosen by that GPU's table,
// two-level by GPU with its leaders' exchange lines, and the checks of such
// plans.
#include <gtest/gtest.h>

#include <set>

#include "cumap/error.hpp"
#include "plan/sync_checks.hpp"
#include "plan/sync_plan.hpp"

namespace cumap {
namespace sync_plan_across_gpus_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

constexpr int kG1 = kDeviceUnitStride;  // unit u of GPU 1 is kG1 + u

// Eight units per GPU, 0-3 on side 0 and 4-7 on side 1; eight lines. On
// GPU 0 the even lines are class 0, on GPU 1 the odd ones: the same offset
// is near on one GPU and far on the other, so only each GPU's own table
// chooses its lines right.
HomesResult gpu_homes(int device, int sides = 2) {
  HomesResult h;
  h.device = device;
  h.arena.bytes = 64 * 1024;
  for (int u = 0; u < 8; ++u) {
    h.unit_ids.push_back(unit_id(UnitRef{device, u}));
    h.table.units.push_back({device, u});
    h.classes.unit_side.push_back(sides == 2 ? u / 4 : 0);
  }
  for (int l = 0; l < 8; ++l) {
    h.table.lines.push_back(static_cast<std::uint64_t>(l) * 4224);
    h.classes.line_class.push_back((l + device) % 2);
  }
  h.classes.class_count = 2;
  for (int u = 0; u < 8; ++u)
    for (int l = 0; l < 8; ++l) {
      const bool near = h.classes.unit_side[u] == h.classes.line_class[l];
      h.table.ns.push_back((near ? 100.0 : 200.0) + l);
    }
  return h;
}

RunHomes two_gpus(int sides_of_gpu1 = 2) { return {gpu_homes(0), gpu_homes(1, sides_of_gpu1)}; }

// Two GPCs per GPU, across its sides.
Topology two_gpcs_each() {
  Topology t;
  t.source = "test";
  for (int d = 0; d < 2; ++d) {
    const int b = d * kG1;
    t.groups.push_back({"GPC0", {b + 0, b + 1, b + 4, b + 5}});
    t.groups.push_back({"GPC1", {b + 2, b + 3, b + 6, b + 7}});
  }
  return t;
}

const UnitsByDevice kUnits{{0, {0, 1, 2, 3, 4, 5, 6, 7}}, {1, {0, 1, 2, 3, 4, 5, 6, 7}}};

SyncOptions options(std::vector<BarrierImpl> impls, ParticipantSet set, std::vector<int> ks) {
  SyncOptions o;
  o.episodes = 10;
  o.warmup = 2;
  o.launches = 1;
  o.impls = std::move(impls);
  o.sets = {set};
  o.k = KSweep{std::move(ks), false, false};
  return o;
}

int class_on(const RunHomes& homes, int device, std::uint64_t offset) {
  return homes.at(static_cast<std::size_t>(device)).classes.line_class.at(offset / 4224);
}

TEST(SyncAcrossGpus, EachSetIsBuiltPerGpuAndTheGpusInterleave) {
  const RunHomes h = two_gpus();
  EXPECT_EQ(participant_order(ParticipantSet::OneSide, h, two_gpcs_each()).units,
            (std::vector<int>{0, kG1, 1, kG1 + 1, 2, kG1 + 2, 3, kG1 + 3}));
  EXPECT_EQ(participant_order(ParticipantSet::Alternating, h, two_gpcs_each()).units,
            (std::vector<int>{0, kG1, 4, kG1 + 4, 1, kG1 + 1, 5, kG1 + 5, 2, kG1 + 2, 6, kG1 + 6, 3, kG1 + 3, 7,
                              kG1 + 7}));
  // A GPU's own groups only: GPU 1's GPC0 is not GPU 0's.
  EXPECT_EQ(participant_order(ParticipantSet::OneGroup, h, two_gpcs_each()).units,
            (std::vector<int>{0, kG1, 1, kG1 + 1, 4, kG1 + 4, 5, kG1 + 5}));
  EXPECT_EQ(participant_order(ParticipantSet::Spread, h, two_gpcs_each()).units,
            (std::vector<int>{0, kG1, 2, kG1 + 2, 1, kG1 + 1, 3, kG1 + 3, 4, kG1 + 4, 6, kG1 + 6, 5, kG1 + 5, 7,
                              kG1 + 7}));
}

TEST(SyncAcrossGpus, ASetOneGpuLacksIsLeftOutNamingThatGpu) {
  const ParticipantOrder o = participant_order(ParticipantSet::Alternating, two_gpus(1), two_gpcs_each());
  EXPECT_TRUE(o.units.empty());
  EXPECT_EQ(o.left_out.rfind("GPU 1: alternating:", 0), 0u) << o.left_out;
}

TEST(SyncAcrossGpus, KTwoIsOneUnitOfEachGpuAndTheSweepEndsAtEveryUnitOfBoth) {
  const RunHomes h = two_gpus();
  SyncOptions o = options({BarrierImpl::Counter}, ParticipantSet::Alternating, {});
  o.k = KSweep{};
  o.homes = {CounterHome::Near};
  const PlannedSync p = plan_sync(o, h, two_gpcs_each());
  std::set<int> ks;
  for (const SyncCaseLabel& l : p.labels) ks.insert(l.k);
  EXPECT_EQ(ks, (std::set<int>{2, 4, 8, 16}));
  ASSERT_EQ(p.plan.cases.front().participants, (std::vector<UnitRef>{{0, 0}, {1, 0}}));
  EXPECT_EQ(p.plan.cases.back().participants.size(), 16u);
  EXPECT_NO_THROW(check_sync_plan(p.plan, kUnits, "SM"));
}

TEST(SyncAcrossGpus, TheCounterGoesOnEachGpuInTurnNearAndFarByThatGpusTable) {
  const RunHomes h = two_gpus();
  const PlannedSync p = plan_sync(options({BarrierImpl::Counter, BarrierImpl::Flag}, ParticipantSet::OneSide, {4}),
                                  h, two_gpcs_each());
  // Participants 0, g1.0, 1, g1.1: every one on side 0 of its GPU.
  ASSERT_EQ(p.labels.size(), 8u) << "counter and flag, each on g0 and g1, near and far";
  std::vector<std::string> names;
  for (std::size_t i = 0; i < p.labels.size(); ++i) {
    const SyncCaseLabel& l = p.labels[i];
    const SyncCase& c = p.plan.cases[i];
    names.push_back(l.counter_gpu + " " + l.counter_home);
    ASSERT_EQ(l.counter_gpu, "g" + std::to_string(c.counter_gpu));
    // Side 0 is near class 0 on either GPU, whose lines are even on GPU 0
    // and odd on GPU 1: each GPU's table put the line there.
    const int wanted = l.counter_home == "near" ? 0 : 1;
    EXPECT_EQ(l.counter_class, wanted);
    EXPECT_EQ(class_on(h, c.counter_gpu, c.counter), wanted) << names.back();
    EXPECT_EQ((c.counter / 4224) % 2, static_cast<std::uint64_t>((wanted + c.counter_gpu) % 2)) << names.back();
    if (c.impl == BarrierImpl::Flag) {
      EXPECT_EQ(class_on(h, c.counter_gpu, c.release), wanted);
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"g0 near", "g0 far", "g1 near", "g1 far", "g0 near", "g0 far",
                                             "g1 near", "g1 far"}));
  EXPECT_NO_THROW(check_sync_plan(p.plan, kUnits, "SM"));
}

TEST(SyncAcrossGpus, TwoLevelGroupsByGpuEachGroupsLinesOnItsOwnGpu) {
  const RunHomes h = two_gpus();
  const PlannedSync p =
      plan_sync(options({BarrierImpl::TwoLevel}, ParticipantSet::OneSide, {4}), h, two_gpcs_each());
  ASSERT_EQ(p.labels.size(), 2u) << "the leaders' exchange near and far";
  for (std::size_t i = 0; i < 2; ++i) {
    const SyncCaseLabel& l = p.labels[i];
    const SyncCase& c = p.plan.cases[i];
    EXPECT_EQ(l.groups, 2);
    EXPECT_EQ(l.grouped_by, "gpu");
    EXPECT_EQ(l.counter_gpu, "each");
    EXPECT_EQ(c.group_of, (std::vector<int>{0, 1, 0, 1}));
    EXPECT_EQ(c.group_gpu, (std::vector<int>{0, 1}));
    ASSERT_EQ(c.group_exchange.size(), 2u);
    EXPECT_EQ(c.counter, c.group_exchange[0]) << "the outputs show the first exchange line as the counter";
    EXPECT_EQ(c.counter_gpu, 0);
    const int exchange_class = l.counter_home == "near" ? 0 : 1;
    for (int g = 0; g < 2; ++g) {
      EXPECT_EQ(class_on(h, g, c.group_counter[g]), 0) << "group " << g << "'s counter near it, on its GPU";
      EXPECT_EQ(class_on(h, g, c.group_release[g]), 0);
      EXPECT_EQ(class_on(h, g, c.group_exchange[g]), exchange_class) << l.counter_home;
    }
    std::set<std::pair<int, std::uint64_t>> words;
    for (const SyncWordSite& w : sync_case_sites(c)) words.insert({w.device, w.offset});
    EXPECT_EQ(words.size(), 6u) << "three lines of its own on each GPU";
  }
  EXPECT_NO_THROW(check_sync_plan(p.plan, kUnits, "SM"));
}

TEST(SyncAcrossGpus, ContentionSweepsTheLinesGpuOverTheParticipantsGpus) {
  SyncOptions o = options({}, ParticipantSet::OneSide, {1, 2});
  o.contention = true;
  o.ops = {ContentionOp::Add};
  o.homes = {CounterHome::Near};
  const PlannedSync p = plan_sync(o, two_gpus(), two_gpcs_each());
  ASSERT_EQ(p.labels.size(), 3u) << "k = 1 on GPU 0 only; k = 2 on g0 and g1";
  EXPECT_EQ(p.labels[0].k, 1);
  EXPECT_EQ(p.labels[0].counter_gpu, "g0");
  EXPECT_EQ(p.labels[1].counter_gpu, "g0");
  EXPECT_EQ(p.labels[2].counter_gpu, "g1");
  EXPECT_EQ(p.plan.cases[2].counter_gpu, 1);
  EXPECT_EQ(p.plan.cases[2].participants, (std::vector<UnitRef>{{0, 0}, {1, 0}}));
}

TEST(SyncAcrossGpus, ThePlatformsBarrierIsPlannedOnceWithNoCounterGpu) {
  const PlannedSync p =
      plan_sync(options({BarrierImpl::Platform}, ParticipantSet::Alternating, {16}), two_gpus(), two_gpcs_each());
  ASSERT_EQ(p.labels.size(), 1u);
  EXPECT_EQ(p.labels[0].counter_home, "own");
  EXPECT_EQ(p.labels[0].counter_gpu, "");
}

TEST(SyncAcrossGpus, OneGpuNamesNoGpuAndKeepsItsOwnDevice) {
  HomesResult one = gpu_homes(0);
  one.device = 1;  // --device 1: plain SM ids on device 1
  for (UnitRef& u : one.table.units) u.device = 1;
  const PlannedSync p = plan_sync(options({BarrierImpl::Counter}, ParticipantSet::OneSide, {2}), one, Topology{});
  for (std::size_t i = 0; i < p.labels.size(); ++i) {
    EXPECT_EQ(p.labels[i].counter_gpu, "");
    EXPECT_EQ(p.plan.cases[i].counter_gpu, 1);
    EXPECT_EQ(p.plan.cases[i].participants, (std::vector<UnitRef>{{1, 0}, {1, 1}}));
  }
}

SyncPlan plan_of(SyncCase c) {
  SyncPlan plan;
  if (c.participants.empty()) c.participants = {{0, 0}, {1, 0}};
  plan.cases.push_back(std::move(c));
  return plan;
}

TEST(CheckSyncPlanAcrossGpus, LinesAreApartPerGpuAndGroupsOnTheirParticipantsGpu) {
  SyncCase flag;
  flag.impl = BarrierImpl::Flag;
  flag.counter_gpu = 1;
  EXPECT_NO_THROW(check_sync_plan(plan_of(flag), kUnits, "SM"));
  flag.counter_gpu = 2;
  EXPECT_THROW(check_sync_plan(plan_of(flag), kUnits, "SM"), UsageError) << "a GPU the backend does not measure";

  SyncCase two;
  two.impl = BarrierImpl::TwoLevel;
  two.group_of = {0, 1};
  two.group_gpu = {0, 1};
  two.group_counter = {256, 256};  // one offset, two GPUs' memory: apart
  two.group_release = {512, 512};
  two.group_exchange = {768, 768};
  two.counter = 768;
  EXPECT_NO_THROW(check_sync_plan(plan_of(two), kUnits, "SM"));
  SyncCase wrong_gpu = two;
  wrong_gpu.group_gpu = {1, 0};
  EXPECT_THROW(check_sync_plan(plan_of(wrong_gpu), kUnits, "SM"), UsageError)
      << "a group's lines on another GPU than its participants'";
  SyncCase short_exchange = two;
  short_exchange.group_exchange = {768};
  EXPECT_THROW(check_sync_plan(plan_of(short_exchange), kUnits, "SM"), UsageError);
  SyncCase shared_line = two;
  shared_line.group_exchange = {768, 512 + 64};  // GPU 1's exchange in its release's line
  EXPECT_THROW(check_sync_plan(plan_of(shared_line), kUnits, "SM"), UsageError);
  EXPECT_EQ(sync_case_devices(two), (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace cumap
