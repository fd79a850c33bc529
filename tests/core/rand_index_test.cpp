#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

#include "core/topology_discovery.hpp"

namespace cumap {
namespace {

TEST(RandIndex, IdenticalPartitionsScoreOne) {
  EXPECT_DOUBLE_EQ(adjusted_rand_index({0, 0, 1, 1, 2}, {0, 0, 1, 1, 2}), 1.0);
}

TEST(RandIndex, RelabelingDoesNotMatter) {
  EXPECT_DOUBLE_EQ(adjusted_rand_index({0, 0, 1, 1, 2}, {7, 7, -3, -3, 4}), 1.0);
}

TEST(RandIndex, SingleClusterBothSidesScoresOne) {
  EXPECT_DOUBLE_EQ(adjusted_rand_index({3, 3, 3}, {0, 0, 0}), 1.0);
}

TEST(RandIndex, HandComputedExamples) {
  // a = [0,0,1,1], b = [0,0,0,1]. Contingency cells 2,1,1 -> sum C(n_ij,2) = 1.
  // Row sums 2,2 -> 1+1 = 2; column sums 3,1 -> 3+0 = 3; C(4,2) = 6.
  // Expected = 2*3/6 = 1; max = (2+3)/2 = 2.5; ARI = (1-1)/(2.5-1) = 0.
  EXPECT_NEAR(adjusted_rand_index({0, 0, 1, 1}, {0, 0, 0, 1}), 0.0, 1e-12);
  // a = [0,0,0,1,1,1], b = [0,0,1,1,2,2]. Cells 2,1,1,2 -> 1+0+0+1 = 2.
  // Rows 3,3 -> 3+3 = 6; columns 2,2,2 -> 1+1+1 = 3; C(6,2) = 15.
  // Expected = 6*3/15 = 1.2; max = 4.5; ARI = 0.8/3.3 = 8/33.
  EXPECT_NEAR(adjusted_rand_index({0, 0, 0, 1, 1, 1}, {0, 0, 1, 1, 2, 2}), 8.0 / 33.0, 1e-12);
}

TEST(RandIndex, RandomVersusStructuredIsNearZero) {
  std::mt19937 rng(42);
  std::uniform_int_distribution<int> label(0, 3);
  std::vector<int> structured, random;
  for (int i = 0; i < 2000; ++i) {
    structured.push_back(i / 500);
    random.push_back(label(rng));
  }
  EXPECT_NEAR(adjusted_rand_index(structured, random), 0.0, 0.02);
}

TEST(RandIndex, DifferentLengthsThrow) {
  EXPECT_THROW(adjusted_rand_index({0, 1}, {0}), std::invalid_argument);
}

}  // namespace
}  // namespace cumap
