#include <vector>

#include <gtest/gtest.h>

#include "cumap/protocol.hpp"

namespace cumap::protocol {
namespace {

std::vector<Segment> segments(const Counts& c) {
  std::vector<Segment> out;
  for (int i = 0; i < segment_count(c); ++i) out.push_back(segment(c, i));
  return out;
}

std::uint64_t total_count(const Counts& c) {
  std::uint64_t n = 0;
  for (const Segment& s : segments(c)) n += static_cast<std::uint64_t>(s.count);
  return n;
}

void expect_segment(const Segment& s, bool a_pings, int count, int sample) {
  EXPECT_EQ(s.a_pings, a_pings);
  EXPECT_EQ(s.count, count);
  EXPECT_EQ(s.sample, sample);
}

std::uint64_t timed_count(const Counts& c) {
  std::uint64_t n = 0;
  for (const Segment& s : segments(c))
    if (s.sample >= 0) n += static_cast<std::uint64_t>(timed_round_trips(s));
  return n;
}

TEST(Protocol, UnorderedSplitsEverySample) {
  const Counts c{100, 3, 20, false};
  EXPECT_EQ(a_share(c), 50);
  const std::vector<Segment> s = segments(c);
  ASSERT_EQ(s.size(), 14u);  // cold, warm-up, 3 x (a's hand-over, a's share, b's hand-over, b's share)
  expect_segment(s[0], true, 2, kColdSample);
  expect_segment(s[1], true, 20, kWarmupSample);
  for (int k = 0; k < 3; ++k) {
    const auto at = static_cast<std::size_t>(2 + 4 * k);
    expect_segment(s[at], true, 1, kHandOverSample);
    expect_segment(s[at + 1], true, 51, k);  // 50 timed round trips, ping to ping
    expect_segment(s[at + 2], false, 1, kHandOverSample);
    expect_segment(s[at + 3], false, 51, k);
  }
  EXPECT_EQ(total_count(c), round_trips(c));
  EXPECT_EQ(round_trips(c), 2u + 20u + 3u * (100u + 4u));
  EXPECT_EQ(timed_count(c), 300u);
}

TEST(Protocol, OrderedLetsAPingEverything) {
  const Counts c{100, 2, 20, true};
  EXPECT_EQ(a_share(c), 100);
  EXPECT_EQ(timed_segments_per_sample(c), 1);
  const std::vector<Segment> s = segments(c);
  ASSERT_EQ(s.size(), 6u);
  expect_segment(s[2], true, 1, kHandOverSample);
  expect_segment(s[3], true, 101, 0);
  expect_segment(s[5], true, 101, 1);
  for (const Segment& seg : s) EXPECT_TRUE(seg.a_pings);
  EXPECT_EQ(total_count(c), round_trips(c));
}

TEST(Protocol, OddItersGiveBTheExtraRoundTrip) {
  const Counts c{7, 2, 5, false};
  EXPECT_EQ(a_share(c), 3);
  const std::vector<Segment> s = segments(c);
  ASSERT_EQ(s.size(), 10u);
  expect_segment(s[3], true, 4, 0);
  expect_segment(s[5], false, 5, 0);
  EXPECT_EQ(timed_round_trips(s[3]), 3);
  EXPECT_EQ(timed_round_trips(s[5]), 4);
  EXPECT_EQ(total_count(c), round_trips(c));
}

TEST(Protocol, NoWarmupSegmentWhenWarmupIsZero) {
  const Counts c{10, 2, 0, false};
  const std::vector<Segment> s = segments(c);
  ASSERT_EQ(s.size(), 9u);
  expect_segment(s[0], true, 2, kColdSample);
  expect_segment(s[1], true, 1, kHandOverSample);
  expect_segment(s[2], true, 6, 0);
  for (const Segment& seg : s) EXPECT_NE(seg.sample, kWarmupSample);
  EXPECT_EQ(total_count(c), round_trips(c));
  EXPECT_EQ(round_trips(c), 2u + 2u * (10u + 4u));
}

TEST(Protocol, OneIterUnorderedIsAllB) {
  // a's share is 0: one timed segment per sample, pinged by b.
  const Counts c{1, 3, 2, false};
  EXPECT_EQ(a_share(c), 0);
  EXPECT_EQ(timed_segments_per_sample(c), 1);
  const std::vector<Segment> s = segments(c);
  ASSERT_EQ(s.size(), 8u);
  for (int k = 0; k < 3; ++k) {
    expect_segment(s[static_cast<std::size_t>(2 + 2 * k)], false, 1, kHandOverSample);
    expect_segment(s[static_cast<std::size_t>(3 + 2 * k)], false, 2, k);
  }
  EXPECT_EQ(total_count(c), round_trips(c));
}

TEST(Protocol, EverySampleIsCoveredOnceWithItsIters) {
  for (const Counts& c : {Counts{100, 5, 20, false}, Counts{9, 4, 0, true}, Counts{13, 1, 3, false}}) {
    std::vector<int> per_sample(static_cast<std::size_t>(c.samples), 0);
    for (const Segment& s : segments(c))
      if (s.sample >= 0) per_sample[static_cast<std::size_t>(s.sample)] += timed_round_trips(s);
    for (int n : per_sample) EXPECT_EQ(n, c.iters);
    EXPECT_EQ(total_count(c), round_trips(c));
  }
}

// A timed segment starts only after a round trip its own pinger started:
// whoever pinged before has finished storing its time by then.
TEST(Protocol, EveryTimedSegmentFollowsAHandOverBySamePinger) {
  for (const Counts& c : {Counts{100, 5, 20, false}, Counts{9, 4, 0, true}, Counts{1, 3, 2, false}}) {
    const std::vector<Segment> s = segments(c);
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i].sample < 0) continue;
      ASSERT_GT(i, 0u);
      EXPECT_EQ(s[i - 1].sample, kHandOverSample) << "segment " << i;
      EXPECT_EQ(s[i - 1].count, 1);
      EXPECT_EQ(s[i - 1].a_pings, s[i].a_pings) << "segment " << i;
      EXPECT_EQ(timed_round_trips(s[i - 1]), 0);
    }
  }
}

TEST(Protocol, ConstantsAreCompileTime) {
  static_assert(round_trips(Counts{100, 5, 20, false}) == 542);
  static_assert(segment(Counts{}, 0).sample == kColdSample);
  static_assert(timed_round_trips(segment(Counts{}, 0)) == 1);
  static_assert(kSameLineGapBytes == kFlagBytes && kLineBytes % kFlagBytes == 0);
  EXPECT_LT(round_trips(Counts{}), kMaxRoundTrips);
}

}  // namespace
}  // namespace cumap::protocol
