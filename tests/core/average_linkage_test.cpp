#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "core/average_linkage.hpp"

namespace cumap {
namespace {

// Merge heights by the textbook algorithm: merge the globally closest pair,
// average-linkage update, repeat.
std::vector<double> greedy_heights(std::vector<double> d, std::size_t n) {
  std::vector<bool> live(n, true);
  std::vector<double> size(n, 1.0), heights;
  for (std::size_t step = 1; step < n; ++step) {
    std::size_t bx = 0, by = 0;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t x = 0; x < n; ++x)
      for (std::size_t y = x + 1; y < n; ++y)
        if (live[x] && live[y] && d[x * n + y] < best) {
          best = d[x * n + y];
          bx = x;
          by = y;
        }
    for (std::size_t z = 0; z < n; ++z)
      if (live[z] && z != bx && z != by)
        d[bx * n + z] = d[z * n + bx] = (size[bx] * d[bx * n + z] + size[by] * d[by * n + z]) / (size[bx] + size[by]);
    size[bx] += size[by];
    live[by] = false;
    heights.push_back(best);
  }
  return heights;
}

TEST(AverageLinkage, SameTreeHeightsAsGreedyMerging) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> coord(0.0, 100.0);
  const std::size_t n = 60;
  std::vector<double> x(n), y(n), d(n * n);
  for (std::size_t i = 0; i < n; ++i) x[i] = coord(rng), y[i] = coord(rng);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) d[i * n + j] = std::hypot(x[i] - x[j], y[i] - y[j]);

  const Dendrogram tree = average_linkage(d, n);
  ASSERT_EQ(tree.nodes.size(), 2 * n - 1);
  EXPECT_EQ(tree.nodes[static_cast<std::size_t>(tree.root())].size, n);
  std::vector<double> heights;
  for (std::size_t i = n; i < tree.nodes.size(); ++i) heights.push_back(tree.nodes[i].height);
  std::sort(heights.begin(), heights.end());
  const std::vector<double> expected = greedy_heights(d, n);
  ASSERT_EQ(heights.size(), expected.size());
  for (std::size_t i = 0; i < heights.size(); ++i) EXPECT_NEAR(heights[i], expected[i], 1e-9) << i;

  std::vector<int> all = leaves_below(tree, tree.root());
  ASSERT_EQ(all.size(), n);
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(all[i], static_cast<int>(i));
}

TEST(AverageLinkage, TwoObviousGroupsAreTheRootsChildren) {
  // Items 0-2 near 0, items 3-4 near 100.
  const std::vector<double> pos{0, 1, 2, 100, 101};
  std::vector<double> d(25);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 5; ++j) d[i * 5 + j] = std::abs(pos[i] - pos[j]);
  const Dendrogram tree = average_linkage(d, 5);
  const Dendrogram::Node& root = tree.nodes[static_cast<std::size_t>(tree.root())];
  std::vector<int> left = leaves_below(tree, root.left), right = leaves_below(tree, root.right);
  if (left.size() < right.size()) std::swap(left, right);
  EXPECT_EQ(left, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(right, (std::vector<int>{3, 4}));
  EXPECT_TRUE(average_linkage({}, 0).nodes.empty());
  EXPECT_EQ(average_linkage({0.0}, 1).root(), 0);
}

}  // namespace
}  // namespace cumap
