#include <gtest/gtest.h>

#include <set>

#include "backends/hip/cu_mask.hpp"
#include "backends/hip/stream_pool.hpp"
#include "cumap/error.hpp"
#include "fake_hip_runtime.hpp"

namespace cumap {
namespace {

using testing::FakeHipConfig;
using testing::FakeHipRuntime;

StreamPool::MaskFn cu_masks(int cu_count) {
  return [cu_count](int u) { return cu_mask_for_unit(HipUnit::Cu, u, cu_count); };
}

TEST(StreamPool, ReusesTheStreamOfAUnit) {
  FakeHipRuntime rt(FakeHipConfig{});
  StreamPool pool(rt, cu_masks(64), "CU", 24);
  const HipStream s = pool.acquire(5);
  EXPECT_EQ(pool.acquire(5), s);
  EXPECT_EQ(rt.streams_created, 1u);
  EXPECT_FALSE(pool.limit().has_value());
}

TEST(StreamPool, ShrinksToTheQueueLimitAndEvictsTheLeastRecent) {
  FakeHipConfig cfg;
  cfg.queue_limit = 3;
  FakeHipRuntime rt(cfg);
  StreamPool pool(rt, cu_masks(64), "CU", 24);
  pool.acquire(0);
  pool.acquire(1);
  pool.acquire(2);
  pool.acquire(0);  // 1 is now the least recently used
  pool.acquire(3);  // refused once: 1 goes
  EXPECT_EQ(pool.limit(), std::optional<std::size_t>(3));
  EXPECT_EQ(rt.live_streams(), 3u);
  const std::size_t created = rt.streams_created;
  pool.acquire(0);
  pool.acquire(2);
  EXPECT_EQ(rt.streams_created, created);  // 0 and 2 survived
  pool.acquire(1);
  EXPECT_EQ(rt.streams_created, created + 1);  // 1 had to be made again
}

TEST(StreamPool, NeverEvictsTheOtherHalfOfThePair) {
  FakeHipConfig cfg;
  cfg.queue_limit = 2;
  FakeHipRuntime rt(cfg);
  StreamPool pool(rt, cu_masks(64), "CU", 24);
  pool.acquire_pair(0, 1);  // 0 is now the least recently used
  pool.acquire_pair(2, 0);  // making 2 must evict 1, not 0
  EXPECT_EQ(rt.streams_created, 3u);
  const auto [a, b] = pool.acquire_pair(3, 2);
  EXPECT_EQ(rt.streams_created, 4u);
  EXPECT_NE(a, b);
  EXPECT_EQ(rt.live_streams(), 2u);
  // Both streams the pair uses are alive: the fake throws on a dead stream.
  PingPongLaunch launch;
  launch.a_stream = a;
  launch.b_stream = b;
  launch.flags = rt.allocate_flags(8192);
  EXPECT_NO_THROW(rt.run_pairs({launch}));
}

TEST(StreamPool, ADeviceThatCannotHoldTwoStreamsFailsClearly) {
  FakeHipConfig cfg;
  cfg.queue_limit = 1;
  FakeHipRuntime rt(cfg);
  StreamPool pool(rt, cu_masks(64), "CU", 24);
  try {
    pool.acquire_pair(0, 1);
    FAIL() << "expected RuntimeFailure";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("refused a stream for CU 1"), std::string::npos) << e.what();
  }
}

TEST(StreamPool, AMaskErrorIsARuntimeFailureNamingUnitAndMask) {
  FakeHipConfig cfg;
  cfg.rejected_cu = 33;
  FakeHipRuntime rt(cfg);
  StreamPool pool(rt, cu_masks(64), "CU", 24);
  try {
    pool.acquire(33);
    FAIL() << "expected RuntimeFailure";
  } catch (const RuntimeFailure& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("hipExtStreamCreateWithCUMask failed for CU 33"), std::string::npos) << msg;
    EXPECT_NE(msg.find("mask 0x00000002:00000000"), std::string::npos) << msg;
    EXPECT_NE(msg.find("hipErrorInvalidValue"), std::string::npos) << msg;
  }
}

TEST(StreamPool, DestroysEveryStreamItMade) {
  FakeHipConfig cfg;
  cfg.queue_limit = 4;
  FakeHipRuntime rt(cfg);
  {
    StreamPool pool(rt, cu_masks(64), "CU", 24);
    for (int u = 0; u < 10; ++u) pool.acquire(u);
    EXPECT_EQ(rt.live_streams(), 4u);
  }
  EXPECT_EQ(rt.live_streams(), 0u);
}

TEST(StreamPool, NeverHoldsMoreThanItsBudget) {
  FakeHipRuntime rt(FakeHipConfig{});  // the device would give any number
  StreamPool pool(rt, cu_masks(64), "CU", 4);
  for (int u = 0; u < 10; ++u) pool.acquire(u);
  EXPECT_EQ(rt.max_live_streams, 4u);
  EXPECT_FALSE(pool.limit().has_value()) << "no refusal: the budget alone held it";
  const auto streams = pool.acquire_all({20, 21, 22, 23});
  EXPECT_EQ(std::set<HipStream>(streams.begin(), streams.end()).size(), 4u);
  EXPECT_EQ(rt.live_streams(), 4u);
  EXPECT_THROW(pool.acquire_all({1, 2, 3, 4, 5}), RuntimeFailure);
}

TEST(StreamPool, ShrinkingTheBudgetDestroysTheLeastRecentStreams) {
  FakeHipRuntime rt(FakeHipConfig{});
  StreamPool pool(rt, cu_masks(64), "CU", 8);
  for (int u = 0; u < 8; ++u) pool.acquire(u);
  pool.shrink_budget(4);
  EXPECT_EQ(rt.live_streams(), 4u);
  EXPECT_EQ(pool.capacity(), 4u);
  const std::size_t created = rt.streams_created;
  pool.acquire(7);  // among the most recent: kept
  EXPECT_EQ(rt.streams_created, created);
}

}  // namespace
}  // namespace cumap
