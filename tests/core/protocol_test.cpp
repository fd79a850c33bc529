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

TEST(Protocol, UnorderedSplitsEverySample) {
  const Counts c{100, 3, 20, false};
  EXPECT_EQ(a_share(c), 50);
  const std::vector<Segment> s = segments(c);
  ASSERT_EQ(s.size(), 8u);  // cold, warm-up, 3 x (a, b)
  expect_segment(s[0], true, 1, kColdSample);
  expect_segment(s[1], true, 20, kWarmupSample);
  for (int k = 0; k < 3; ++k) {
    expect_segment(s[static_cast<std::size_t>(2 + 2 * k)], true, 50, k);
    expect_segment(s[static_cast<std::size_t>(3 + 2 * k)], false, 50, k);
  }
  EXPECT_EQ(total_count(c), round_trips(c));
  EXPECT_EQ(round_trips(c), 1u + 20u + 300u);
}

TEST(Protocol, OrderedLetsAPingEverything) {
  const Counts c{100, 2, 20, true};
  EXPECT_EQ(a_share(c), 100);
  EXPECT_EQ(segments_per_sample(c), 1);
  const std::vector<Segment> s = segments(c);
  ASSERT_EQ(s.size(), 4u);
  expect_segment(s[2], true, 100, 0);
  expect_segment(s[3], true, 100, 1);
  for (const Segment& seg : s) EXPECT_TRUE(seg.a_pings);
  EXPECT_EQ(total_count(c), round_trips(c));
}

TEST(Protocol, OddItersGiveBTheExtraRoundTrip) {
  const Counts c{7, 2, 5, false};
  EXPECT_EQ(a_share(c), 3);
  const std::vector<Segment> s = segments(c);
  ASSERT_EQ(s.size(), 6u);
  expect_segment(s[2], true, 3, 0);
  expect_segment(s[3], false, 4, 0);
  EXPECT_EQ(total_count(c), round_trips(c));
}

TEST(Protocol, NoWarmupSegmentWhenWarmupIsZero) {
  const Counts c{10, 2, 0, false};
  const std::vector<Segment> s = segments(c);
  ASSERT_EQ(s.size(), 5u);
  expect_segment(s[0], true, 1, kColdSample);
  expect_segment(s[1], true, 5, 0);
  for (const Segment& seg : s) EXPECT_NE(seg.sample, kWarmupSample);
  EXPECT_EQ(total_count(c), round_trips(c));
  EXPECT_EQ(round_trips(c), 21u);
}

TEST(Protocol, OneIterUnorderedIsAllB) {
  // a's share is 0: one segment per sample, pinged by b.
  const Counts c{1, 3, 2, false};
  EXPECT_EQ(a_share(c), 0);
  EXPECT_EQ(segments_per_sample(c), 1);
  const std::vector<Segment> s = segments(c);
  ASSERT_EQ(s.size(), 5u);
  for (int k = 0; k < 3; ++k) expect_segment(s[static_cast<std::size_t>(2 + k)], false, 1, k);
  EXPECT_EQ(total_count(c), round_trips(c));
}

TEST(Protocol, EverySampleIsCoveredOnceWithItsIters) {
  for (const Counts& c : {Counts{100, 5, 20, false}, Counts{9, 4, 0, true}, Counts{13, 1, 3, false}}) {
    std::vector<int> per_sample(static_cast<std::size_t>(c.samples), 0);
    for (const Segment& s : segments(c))
      if (s.sample >= 0) per_sample[static_cast<std::size_t>(s.sample)] += s.count;
    for (int n : per_sample) EXPECT_EQ(n, c.iters);
    EXPECT_EQ(total_count(c), round_trips(c));
  }
}

TEST(Protocol, ConstantsAreCompileTime) {
  static_assert(round_trips(Counts{100, 5, 20, false}) == 521);
  static_assert(segment(Counts{}, 0).sample == kColdSample);
  static_assert(kSameLineGapBytes == kFlagBytes && kLineBytes % kFlagBytes == 0);
  EXPECT_LT(round_trips(Counts{}), kMaxRoundTrips);
}

}  // namespace
}  // namespace cumap::protocol
