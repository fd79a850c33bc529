#include <map>
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "cumap/schedule.hpp"

namespace cumap {
namespace {

std::vector<int> first_units(int n) {
  std::vector<int> u;
  for (int i = 0; i < n; ++i) u.push_back(3 * i + 1);  // not 0..n-1, to catch index/id mix-ups
  return u;
}

TEST(core_Schedule, UnorderedCoversEveryPairOnce) {
  for (int n : {2, 3, 5, 17, 64}) {
    const Schedule s = make_schedule(first_units(n), false);
    EXPECT_FALSE(s.ordered);
    ASSERT_EQ(s.pairs.size(), static_cast<std::size_t>(n * (n - 1) / 2)) << n;
    std::set<std::pair<int, int>> seen;
    for (const Pair& p : s.pairs) {
      EXPECT_LT(p.a, p.b);
      EXPECT_TRUE(seen.emplace(p.a, p.b).second) << "duplicate " << p.a << "," << p.b;
    }
  }
}

TEST(core_Schedule, OrderedCoversBothDirectionsOnce) {
  for (int n : {2, 4, 9, 33}) {
    const Schedule s = make_schedule(first_units(n), true);
    EXPECT_TRUE(s.ordered);
    ASSERT_EQ(s.pairs.size(), static_cast<std::size_t>(n * (n - 1))) << n;
    std::set<std::pair<int, int>> seen;
    for (const Pair& p : s.pairs) {
      EXPECT_NE(p.a, p.b);
      EXPECT_TRUE(seen.emplace(p.a, p.b).second);
    }
    for (const Pair& p : s.pairs) EXPECT_TRUE(seen.contains({p.b, p.a}));
  }
}

TEST(core_Schedule, RowMajorOrderAndSortedUnits) {
  const Schedule s = make_schedule({5, 1, 3, 3}, false);
  EXPECT_EQ(s.units, (std::vector<int>{1, 3, 5}));
  EXPECT_EQ(s.pairs, (std::vector<Pair>{{1, 3}, {1, 5}, {3, 5}}));
  const Schedule o = make_schedule({2, 0, 1}, true);
  EXPECT_EQ(o.pairs, (std::vector<Pair>{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}}));
}

TEST(core_Schedule, NeedsTwoUnits) {
  EXPECT_THROW(make_schedule({}, false), UsageError);
  EXPECT_THROW(make_schedule({4}, true), UsageError);
  EXPECT_THROW(make_schedule({4, 4}, false), UsageError);
}

}  // namespace
}  // namespace cumap
