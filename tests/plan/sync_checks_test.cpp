// The checks every backend applies to a SyncPlan.
#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "plan/sync_checks.hpp"
#include "sync_case_builders.hpp"

namespace cumap {
namespace {

constexpr std::uint64_t kLine = protocol::kLineBytes;

// Counter and release in lines 0 and 1, the case's default episodes.
SyncCase barrier(BarrierImpl impl, const std::vector<int>& units) {
  return test::barrier_case(impl, units, 0, SyncCase{}.episodes, SyncCase{}.warmup);
}

SyncPlan plan_of(SyncCase c) { return test::plan_of({std::move(c)}); }

const UnitsByDevice kUnits{{0, {0, 1, 2, 3}}};

void expect_refused(const SyncCase& c, const char* why) {
  EXPECT_THROW(check_sync_plan(plan_of(c), kUnits, "SM"), UsageError) << why;
}

TEST(SyncChecks, AWellFormedCaseOfEveryKindPasses) {
  SyncCase two = barrier(BarrierImpl::TwoLevel, {0, 1, 2, 3});
  two.group_of = {0, 0, 1, 1};
  two.group_counter = {2 * kLine, 3 * kLine};
  two.group_release = {4 * kLine, 5 * kLine};
  SyncCase contention = barrier(BarrierImpl::Counter, {0, 1});
  contention.contention = true;
  SyncPlan p = plan_of(two);
  p.cases.push_back(barrier(BarrierImpl::Counter, {3}));
  p.cases.push_back(barrier(BarrierImpl::Flag, {1, 2}));
  p.cases.push_back(barrier(BarrierImpl::Platform, {0, 1, 2, 3}));
  p.cases.push_back(contention);
  EXPECT_NO_THROW(check_sync_plan(p, kUnits, "SM"));
}

TEST(SyncChecks, ParticipantsMustExistOnceEach) {
  expect_refused(barrier(BarrierImpl::Counter, {}), "no participants");
  expect_refused(barrier(BarrierImpl::Counter, {0, 7}), "unit 7 does not exist");
  expect_refused(barrier(BarrierImpl::Counter, {1, 2, 1}), "unit 1 twice");
  SyncCase other_device = barrier(BarrierImpl::Counter, {0});
  other_device.participants.push_back({1, 0});
  expect_refused(other_device, "device 1 is not measured");
}

TEST(SyncChecks, CountsMustBeRunnableAndFitTheCounter) {
  SyncCase c = barrier(BarrierImpl::Counter, {0, 1});
  c.episodes = 0;
  expect_refused(c, "no episodes");
  c.episodes = 1;
  c.warmup = -1;
  expect_refused(c, "negative warm-up");
  c.warmup = 0;
  c.contention = true;
  c.ops_per_batch = 0;
  expect_refused(c, "no operations");
  c.ops_per_batch = 1 << 20;
  c.episodes = 1 << 10;
  expect_refused(c, "2 x 2^10 x 2^20 operations wrap the counter");
  c.episodes = 1 << 9;
  c.ops_per_batch = (1 << 21) - 1;  // 2 x 2^9 x (2^21 - 1) < 2^31
  EXPECT_NO_THROW(check_sync_plan(plan_of(c), kUnits, "SM"));
}

TEST(SyncChecks, WordsAreAlignedInsideTheArenaAndALineApart) {
  SyncCase c = barrier(BarrierImpl::Flag, {0, 1});
  c.counter = 2;
  expect_refused(c, "unaligned counter");
  c.counter = 64 * 1024;
  expect_refused(c, "counter past the arena");
  c.counter = 0;
  c.release = kLine - 4;
  expect_refused(c, "release in the counter's line");
  // A counter barrier has no release flag: where it points does not matter.
  SyncCase counter = barrier(BarrierImpl::Counter, {0, 1});
  counter.release = 4;
  EXPECT_NO_THROW(check_sync_plan(plan_of(counter), kUnits, "SM"));
}

TEST(SyncChecks, TwoLevelGroupsAreWellFormed) {
  SyncCase c = barrier(BarrierImpl::TwoLevel, {0, 1, 2});
  c.group_counter = {2 * kLine, 3 * kLine};
  c.group_release = {4 * kLine, 5 * kLine};
  c.group_of = {0, 1};
  expect_refused(c, "a participant without a group");
  c.group_of = {0, 0, 2};
  expect_refused(c, "group 2 of 2");
  c.group_of = {0, 0, 0};
  expect_refused(c, "group 1 empty");
  c.group_of = {0, 1, 1};
  c.group_release = {4 * kLine};
  expect_refused(c, "a group without a release line");
  c.group_release = {4 * kLine, 3 * kLine + 8};
  expect_refused(c, "group 1's release in group 1's counter line");
  c.group_release = {4 * kLine, 5 * kLine};
  EXPECT_NO_THROW(check_sync_plan(plan_of(c), kUnits, "SM"));
}

TEST(SyncChecks, CaseWordsAreThoseItsImplementationUses) {
  SyncCase c = barrier(BarrierImpl::TwoLevel, {0, 1});
  c.group_counter = {2 * kLine};
  c.group_release = {3 * kLine};
  EXPECT_EQ(sync_case_words(c), (std::vector<std::uint64_t>{0, kLine, 2 * kLine, 3 * kLine}));
  c.impl = BarrierImpl::Counter;
  EXPECT_EQ(sync_case_words(c), (std::vector<std::uint64_t>{0}));
  c.impl = BarrierImpl::Flag;
  EXPECT_EQ(sync_case_words(c), (std::vector<std::uint64_t>{0, kLine}));
  c.contention = true;
  EXPECT_EQ(sync_case_words(c), (std::vector<std::uint64_t>{0}));
}

}  // namespace
}  // namespace cumap
