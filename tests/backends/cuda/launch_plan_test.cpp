// Host arithmetic of the CUDA backend: launch slicing at round boundaries,
// budgets, plan checks, decoding, the arena layout and line-probe tables.
#include <gtest/gtest.h>

#include <cmath>

#include "backends/cuda/launch_plan.hpp"
#include "cumap/error.hpp"
#include "plan_fixtures.hpp"

namespace cumap::cuda {
namespace {

using testing::plan_of;
using testing::serial_plan;

protocol::Counts counts(int iters, int samples, int warmup) { return {iters, samples, warmup, false}; }

TEST(CudaPlan, RoundRangesCoverEveryRoundOnce) {
  for (std::size_t total : {0u, 1u, 7u, 8646u}) {
    for (std::size_t per : {1u, 3u, 150u, 10000u}) {
      std::size_t next = 0;
      for (auto [b, e] : launch_round_ranges(total, per)) {
        EXPECT_EQ(b, next);
        EXPECT_GT(e, b);
        EXPECT_LE(e - b, per);
        next = e;
      }
      EXPECT_EQ(next, total);
    }
  }
}

TEST(CudaPlan, APlanLongerThanOneLaunchEndsWithAShortOne) {
  const std::vector<RoundRange> ranges = launch_round_ranges(3168, 792);
  ASSERT_EQ(ranges.size(), 5u);
  EXPECT_EQ(ranges.back(), (RoundRange{3069, 3168})) << "an eighth of 792 rounds";
  EXPECT_EQ(ranges[3], (RoundRange{2376, 3069}));
  EXPECT_EQ(launch_round_ranges(792, 792).size(), 1u) << "one launch's worth stays one launch";
  EXPECT_EQ(launch_round_ranges(10, 4).back(), (RoundRange{9, 10}));
}

TEST(CudaPlan, RoundsPerLaunchFollowsTheTargetDuration) {
  const protocol::Counts c = counts(196, 5, 8);  // 2 + 8 + 5 x (196 + 4 untimed) round trips
  EXPECT_EQ(protocol::round_trips(c), 1010u);
  // A round lasts one pair: 1010 round trips at 1000 ns = 1.01 ms; 0.1 s holds 99.
  EXPECT_EQ(rounds_per_launch(c, 1000.0, 0.1), 99u);
  EXPECT_EQ(rounds_per_launch(c, 1e9, 0.1), 1u);  // never zero
}

TEST(CudaPlan, RoundEstimateSaturates) {
  EXPECT_EQ(round_ns_estimate(counts(100, 5, 20), 700.0), 379400u);  // 542 round trips
  EXPECT_EQ(round_ns_estimate(counts(1 << 30, 1000, 0), 1e6), 4000000000u);
}

TEST(CudaPlan, BudgetsAreInCyclesOfTheTopClock) {
  EXPECT_EQ(budget_cycles(1000.0, 1.98e9), 1980000000ull);
  // A waiting block allows a whole pair and two wait budgets per round.
  EXPECT_GT(round_budget_cycles(counts(200, 5, 20), 1000.0, 1.98e9), 2 * budget_cycles(1000.0, 1.98e9));
}

TEST(CudaPlan, SerialPlanGivesOneRoundPerPairAndTheOldTurnTargets) {
  const MeasurementPlan plan = serial_plan({0, 1, 2, 3});
  const LaunchPairs lp = launch_pairs(plan, {2, 5}, {0});
  ASSERT_EQ(lp.pairs.size(), 3u);
  // Pair p of the launch waits for p finished pairs: the serial schedule's turn.
  EXPECT_EQ(lp.round_starts, (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(lp.round_width, 1u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(lp.pairs[i].round, i);
  EXPECT_EQ(lp.pairs[0].a, 0);
  EXPECT_EQ(lp.pairs[0].b, 3);
  EXPECT_EQ(lp.pairs[1].a, 1);
  EXPECT_EQ(lp.pairs[1].b, 2);
}

TEST(CudaPlan, ConcurrentLaunchKeepsWholeRoundsAndWordOffsets) {
  const MeasurementPlan plan = plan_of({{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}}});
  const LaunchPairs lp = launch_pairs(plan, {1, 3}, {0});
  ASSERT_EQ(lp.pairs.size(), 3u);
  EXPECT_EQ(lp.round_starts, (std::vector<unsigned>{0, 2, 3}));
  EXPECT_EQ(lp.round_width, 2u);
  EXPECT_EQ(lp.pairs[0].round, 0);  // rounds count from the launch's first
  EXPECT_EQ(lp.pairs[2].round, 1);
  // Pair 2 of the plan is on line 2: bytes 256 and 260, words 64 and 65.
  EXPECT_EQ(lp.pairs[0].first_word, 64u);
  EXPECT_EQ(lp.pairs[0].second_word, 65u);
}

TEST(CudaPlan, PlansTheKernelCannotRunAreBadInput) {
  const MeasurementPlan good = plan_of({{{0, 1}, {2, 3}}});
  EXPECT_NO_THROW(check_plan_flags(good));
  MeasurementPlan shared_unit = plan_of({{{0, 1}, {1, 3}}});
  EXPECT_THROW(check_plan_flags(shared_unit), UsageError);
  MeasurementPlan shared_word = good;
  shared_word.rounds[0].pairs[1].flags.first = shared_word.rounds[0].pairs[0].flags.second;
  EXPECT_THROW(check_plan_flags(shared_word), UsageError);
  MeasurementPlan unaligned = good;
  unaligned.rounds[0].pairs[0].flags.second = 6;
  EXPECT_THROW(check_plan_flags(unaligned), UsageError);
  MeasurementPlan outside = good;
  outside.rounds[0].pairs[0].flags.second = outside.arena.bytes;
  EXPECT_THROW(check_plan_flags(outside), UsageError);
  MeasurementPlan odd_offset = good;
  odd_offset.arena.offset_bytes = 2;
  EXPECT_THROW(check_plan_flags(odd_offset), UsageError);
  // A later round may reuse a line: flags are reset between rounds.
  MeasurementPlan reuse = plan_of({{{0, 1}}, {{2, 3}}});
  reuse.rounds[1].pairs[0].flags = reuse.rounds[0].pairs[0].flags;
  EXPECT_NO_THROW(check_plan_flags(reuse));
}

TEST(CudaPlan, DecodeCarriesTagsRoundsAndFlags) {
  MeasurementPlan plan = plan_of({{{0, 1}}, {{0, 2}, {1, 3}}, {{2, 3}}});
  plan.counts = counts(100, 2, 0);
  LaunchRecords rec;
  // Rounds 1 and 2 were this launch; its first pair timed out.
  rec.status = {kPingTimedOut, kPairOk, kPairOk};
  rec.cold_cycles = {0, 4000, 3000};
  rec.sample_cycles = {0, 0, 100000, 120000, 50000, 50000};
  const double cpn = 2.0;  // 2 GHz
  const auto m = decode_launch(plan, {1, 3}, {0}, {rec}, {cpn});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].a.unit, 0);
  EXPECT_EQ(m[0].b.unit, 2);
  EXPECT_TRUE(m[0].timed_out);
  EXPECT_TRUE(m[0].rtt_ns.empty());
  EXPECT_EQ(m[0].round, 1);
  EXPECT_EQ(m[1].round, 1);
  EXPECT_EQ(m[2].round, 2);
  EXPECT_EQ(m[1].tag, plan.rounds[1].pairs[1].tag);
  EXPECT_EQ(m[1].flags, plan.rounds[1].pairs[1].flags);
  EXPECT_EQ(m[2].flags, plan.rounds[2].pairs[0].flags);
  EXPECT_FALSE(m[1].timed_out);
  ASSERT_EQ(m[1].rtt_cycles.size(), 2u);
  EXPECT_DOUBLE_EQ(m[1].rtt_cycles[0], 1000.0);
  EXPECT_DOUBLE_EQ(m[1].rtt_cycles[1], 1200.0);
  EXPECT_DOUBLE_EQ(m[1].rtt_ns[0], 500.0);
  EXPECT_DOUBLE_EQ(m[1].rtt_ns[1], 600.0);
  EXPECT_DOUBLE_EQ(m[1].cold_rtt_ns, 2000.0);
  EXPECT_DOUBLE_EQ(m[2].rtt_ns[0], 250.0);
}

TEST(CudaPlan, ClockFromMarks) {
  const std::uint64_t marks[4] = {1000, 5000, 1000 + 1980000, 5000 + 1000000};
  EXPECT_DOUBLE_EQ(cycles_per_ns(marks), 1.98);
  const std::uint64_t empty[4] = {7, 7, 7, 7};
  EXPECT_TRUE(std::isnan(cycles_per_ns(empty)));
}

TEST(CudaPlan, ArenaStartsOnA64KiBBoundaryPlusTheOffset) {
  FlagArena arena;
  arena.bytes = 1 << 20;
  arena.offset_bytes = 4096 + 128;
  const std::uintptr_t allocation = 0x7f0000001234;
  const std::uintptr_t base = arena_base(allocation, arena);
  EXPECT_EQ((base - arena.offset_bytes) % kArenaAlignment, 0u);
  EXPECT_GE(base - arena.offset_bytes, allocation);
  // The whole arena lies inside the allocation.
  EXPECT_LE(base + arena.bytes, allocation + arena_allocation_bytes(arena));
  FlagArena too_big;
  too_big.bytes = 32ull << 30;
  EXPECT_THROW(check_arena(too_big), UsageError);
}

TEST(CudaPlan, FlushBufferIsTwiceTheL2) {
  const std::size_t l2 = 50 * 1024 * 1024;
  EXPECT_GE(flush_buffer_words(l2) * 4, 2 * l2);
  EXPECT_EQ(flush_buffer_words(l2) % 4, 0u);  // whole 16-byte stores
}

TEST(CudaPlan, PersistingWindowIsClampedToTheDevice) {
  EXPECT_EQ(persisting_window_bytes(1 << 20, 31 << 20, 128 << 20), std::size_t{1} << 20);
  EXPECT_EQ(persisting_window_bytes(64u << 20, 31u << 20, 128u << 20), std::size_t{31} << 20);
  EXPECT_EQ(persisting_window_bytes(64u << 20, 31u << 20, 16u << 20), std::size_t{16} << 20);
  EXPECT_EQ(persisting_window_bytes(4096, 0, 0), 0u);
}

TEST(CudaPlan, AbortReasonsAreExplained) {
  EXPECT_TRUE(abort_reason(kNoAbort).empty());
  EXPECT_NE(abort_reason(kAbortSharedSm).find("more than one block"), std::string::npos);
  EXPECT_NE(abort_reason(kAbortWaitTimeout).find("waited"), std::string::npos);
  EXPECT_NE(abort_reason(99).find("99"), std::string::npos);
}

TEST(CudaPlan, ProbeLaunchesHoldAboutATenthOfASecond) {
  LineProbePlan plan;
  plan.lines.assign(512, 0);
  plan.chain = 32;
  plan.repeats = 3;
  // 49152 atomics per unit at 300 ns = 14.7 ms: 6 units per 0.1 s launch.
  EXPECT_EQ(units_per_probe_launch(plan, 300.0, 0.1), 6u);
  EXPECT_EQ(units_per_probe_launch(plan, 1e6, 0.1), 1u);
  EXPECT_GT(turn_budget_cycles(plan, 1.98e9), budget_cycles(49152 * 300e-6, 1.98e9));
}

TEST(CudaPlan, ProbeLinesMustBeAlignedWordsOfTheArena) {
  LineProbePlan plan;
  plan.arena.bytes = 4096;
  plan.lines = {0, 128, 4092};
  EXPECT_NO_THROW(check_line_probe(plan));
  EXPECT_EQ(line_words(plan), (std::vector<std::uint32_t>{0, 32, 1023}));
  plan.lines = {4096};
  EXPECT_THROW(check_line_probe(plan), UsageError);
  plan.lines = {2};
  EXPECT_THROW(check_line_probe(plan), UsageError);
  plan.lines = {0};
  plan.chain = 0;
  EXPECT_THROW(check_line_probe(plan), UsageError);
}

TEST(CudaPlan, ProbeRowsKeepTheMedianPerAtomic) {
  LineLatencyTable t;
  t.units = {{0, 0}, {0, 1}, {0, 2}};
  t.lines = {0, 128};
  t.cycles.assign(6, kNaN);
  t.ns = t.cycles;
  // Units 1 and 2 were this launch; 3 repeats of a 10-atomic chain.
  const std::vector<std::uint64_t> cycles{3000, 3100, 9000, 5000, 5200, 5100, 100, 3100, 3200, 5000, 5000, 5000};
  fill_probe_rows(t, 1, 2, cycles, 10, 3, 2.0);
  EXPECT_TRUE(std::isnan(t.cycles[0]));  // unit 0 untouched
  EXPECT_DOUBLE_EQ(t.cycles[2], 310.0);  // median of 300, 310, 900
  EXPECT_DOUBLE_EQ(t.cycles[3], 510.0);
  EXPECT_DOUBLE_EQ(t.cycles[4], 310.0);
  EXPECT_DOUBLE_EQ(t.cycles[5], 500.0);
  EXPECT_DOUBLE_EQ(t.ns_at(1, 0), 155.0);
}

// A plan across two GPUs: the group is the devices of its units and flags,
// and pairs name members, not ordinals.
TEST(CudaPlan, AcrossGpusPairsNameGroupMembers) {
  MeasurementPlan plan;
  plan.units = {{1, 0}, {1, 1}, {3, 0}, {3, 1}};
  PlannedPair same{{1, 0}, {1, 1}, {0, 4, 1}, 0};
  PlannedPair across{{1, 1}, {3, 0}, {128, 132, 3}, 0};
  plan.rounds = {{{same}}, {{across}}};
  plan.counts = counts(100, 2, 0);
  const std::vector<int> group = launch_group(plan);
  ASSERT_EQ(group, (std::vector<int>{1, 3}));
  EXPECT_EQ(member_of(group, 3), 1);
  EXPECT_THROW(member_of(group, 2), std::invalid_argument);
  const LaunchPairs lp = launch_pairs(plan, {0, 2}, group);
  ASSERT_EQ(lp.pairs.size(), 2u);
  EXPECT_EQ(lp.pairs[0].a_gpu, 0);
  EXPECT_EQ(lp.pairs[0].b_gpu, 0);
  EXPECT_EQ(lp.pairs[0].flag_gpu, 0);
  EXPECT_EQ(lp.pairs[1].a, 1);
  EXPECT_EQ(lp.pairs[1].a_gpu, 0);
  EXPECT_EQ(lp.pairs[1].b, 0);
  EXPECT_EQ(lp.pairs[1].b_gpu, 1);
  EXPECT_EQ(lp.pairs[1].flag_gpu, 1);
  EXPECT_EQ(lp.pairs[1].first_word, 32u);
}

TEST(CudaPlan, AGroupOfMoreThanEightGpusIsBadInput) {
  MeasurementPlan plan;
  for (int d = 0; d < 9; ++d) plan.units.push_back({d, 0});
  EXPECT_THROW(launch_group(plan), UsageError);
}

// Each member records the cycles its own SMs pinged: a pair across GPUs has
// a's half on a's member and b's half on b's. The pair's cycles are the sum;
// its ns each member's cycles through that member's clock.
TEST(CudaPlan, DecodeAddsTheMembersHalvesEachThroughItsOwnClock) {
  MeasurementPlan plan;
  plan.rounds = {{{PlannedPair{{0, 5}, {1, 7}, {0, 4, 0}, 9}}}};
  plan.counts = counts(100, 2, 0);
  LaunchRecords a, b;
  a.status = {kPairOk};
  a.cold_cycles = {8000};
  a.sample_cycles = {100000, 110000};  // a's 50 round trips of each sample
  b.status = {kPairOk};
  b.cold_cycles = {0};
  b.sample_cycles = {150000, 150000};  // b's 50
  const auto m = decode_launch(plan, {0, 1}, {0, 1}, {a, b}, {2.0, 1.5});
  ASSERT_EQ(m.size(), 1u);
  ASSERT_FALSE(m[0].timed_out);
  EXPECT_DOUBLE_EQ(m[0].rtt_cycles[0], 2500.0);               // (100000 + 150000) / 100
  EXPECT_DOUBLE_EQ(m[0].rtt_ns[0], 1000.0 / 2.0 + 1500.0 / 1.5);  // each half through its clock
  EXPECT_DOUBLE_EQ(m[0].rtt_ns[1], 1100.0 / 2.0 + 1000.0);
  EXPECT_DOUBLE_EQ(m[0].cold_rtt_ns, 4000.0);  // a's, on a's clock
  // Either member's timeout is the pair's.
  b.status = {kPongTimedOut};
  EXPECT_TRUE(decode_launch(plan, {0, 1}, {0, 1}, {a, b}, {2.0, 1.5})[0].timed_out);
}

}  // namespace
}  // namespace cumap::cuda
