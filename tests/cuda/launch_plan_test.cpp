#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "backends/cuda/launch_plan.hpp"

namespace cumap::cuda {
namespace {

MeasureSpec spec_with(int iters, int samples, int warmup) {
  MeasureSpec s;
  s.iters = iters;
  s.samples = samples;
  s.warmup = warmup;
  return s;
}

TEST(CudaPlan, LaunchRangesCoverEveryPairOnce) {
  for (std::size_t total : {0u, 1u, 7u, 8646u}) {
    for (std::size_t per : {1u, 3u, 150u, 10000u}) {
      std::size_t next = 0;
      for (auto [b, e] : launch_ranges(total, per)) {
        EXPECT_EQ(b, next);
        EXPECT_GT(e, b);
        EXPECT_LE(e - b, per);
        next = e;
      }
      EXPECT_EQ(next, total);
    }
  }
}

TEST(CudaPlan, PairsPerLaunchFollowsTheTargetDuration) {
  const MeasureSpec s = spec_with(200, 5, 19);  // 1 + 19 + 1000 round trips
  EXPECT_EQ(round_trips_per_pair(s), 1020u);
  // 1020 round trips at 1000 ns = 1.02 ms per pair; 0.1 s holds 98 pairs.
  EXPECT_EQ(pairs_per_launch(s, 1000.0, 0.1), 98u);
  EXPECT_EQ(pairs_per_launch(s, 1e9, 0.1), 1u);  // never zero
}

TEST(CudaPlan, PairEstimateSaturates) {
  const MeasureSpec s = spec_with(100, 5, 20);  // 521 round trips
  EXPECT_EQ(pair_ns_estimate(s, 700.0), 364700u);
  EXPECT_EQ(pair_ns_estimate(spec_with(1 << 30, 1000, 0), 1e6), 4000000000u);
}

TEST(CudaPlan, BudgetsAreInCyclesOfTheTopClock) {
  EXPECT_EQ(budget_cycles(1000.0, 1.98e9), 1980000000ull);
  const MeasureSpec s = spec_with(200, 5, 20);
  // A waiting block allows a whole pair and two wait budgets.
  EXPECT_GT(pair_budget_cycles(s, 1.98e9), 2 * budget_cycles(s.timeout_ms, 1.98e9));
}

TEST(CudaPlan, DecodeTurnsCyclesIntoNanoseconds) {
  const std::vector<Pair> pairs{{0, 1}, {0, 2}, {1, 2}};
  MeasureSpec s = spec_with(100, 2, 0);
  LaunchRecords rec;
  // Pairs 1 and 2 of the schedule were this launch; the first timed out.
  rec.status = {kPingTimedOut, kPairOk};
  rec.cold_cycles = {0, 4000};
  rec.sample_cycles = {0, 0, 100000, 120000};
  const double cpn = 2.0;  // 2 GHz
  auto m = decode_launch(pairs, 1, rec, s, cpn, 3);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].a, 0);
  EXPECT_EQ(m[0].b, 2);
  EXPECT_TRUE(m[0].timed_out);
  EXPECT_TRUE(m[0].rtt_ns.empty());
  EXPECT_EQ(m[1].a, 1);
  EXPECT_EQ(m[1].b, 2);
  EXPECT_EQ(m[1].copy, 3);
  EXPECT_FALSE(m[1].timed_out);
  ASSERT_EQ(m[1].rtt_cycles.size(), 2u);
  EXPECT_DOUBLE_EQ(m[1].rtt_cycles[0], 1000.0);
  EXPECT_DOUBLE_EQ(m[1].rtt_cycles[1], 1200.0);
  EXPECT_DOUBLE_EQ(m[1].rtt_ns[0], 500.0);
  EXPECT_DOUBLE_EQ(m[1].rtt_ns[1], 600.0);
  EXPECT_DOUBLE_EQ(m[1].cold_rtt_ns, 2000.0);
}

TEST(CudaPlan, ClockFromMarks) {
  const std::uint64_t marks[4] = {1000, 5000, 1000 + 1980000, 5000 + 1000000};
  EXPECT_DOUBLE_EQ(cycles_per_ns(marks), 1.98);
  const std::uint64_t empty[4] = {7, 7, 7, 7};
  EXPECT_TRUE(std::isnan(cycles_per_ns(empty)));
}

TEST(CudaPlan, FlagPlacement) {
  for (int copy = 0; copy < 40; ++copy) {
    const FlagOffsets same = flag_offsets(copy, Placement::SameLine);
    const FlagOffsets split = flag_offsets(copy, Placement::SplitLine);
    // Same-line: both words inside one 128-byte line.
    EXPECT_EQ(same.first * 4 / 128, same.second * 4 / 128);
    EXPECT_NE(same.first, same.second);
    // Split-line: different lines and different 4 KiB pages.
    EXPECT_NE(split.first * 4 / 128, split.second * 4 / 128);
    EXPECT_NE(split.first * 4 / 4096, split.second * 4 / 4096);
    EXPECT_EQ(same.first, split.first);
    EXPECT_LT(split.second, flag_buffer_words(copy + 1));
  }
  // Rotating copies live on distinct pages.
  std::set<std::size_t> pages;
  for (int copy = 0; copy < 8; ++copy) pages.insert(flag_offsets(copy, Placement::SplitLine).first * 4 / 4096);
  EXPECT_EQ(pages.size(), 8u);
  // ... and at different line offsets within their pages.
  EXPECT_NE(flag_offsets(0, Placement::SameLine).first % 1024, flag_offsets(1, Placement::SameLine).first % 1024);
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

}  // namespace
}  // namespace cumap::cuda
