#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "cumap/backend.hpp"
#include "core/stats.hpp"

namespace cumap {
namespace {

TEST(Stats, MedianOfOddCount) {
  const std::vector<double> v{5, 1, 3};
  EXPECT_DOUBLE_EQ(summarize(v).median, 3.0);
}

TEST(Stats, MedianOfEvenCountInterpolates) {
  const std::vector<double> v{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(summarize(v).median, 2.5);
}

TEST(Stats, PercentilesMatchNumpyLinear) {
  // x = 10, 20, ..., 100 (n = 10), shuffled.
  // numpy.percentile(x, 5):  position 0.05 * 9 = 0.45 -> 10 + 0.45 * 10 = 14.5
  // numpy.percentile(x, 95): position 0.95 * 9 = 8.55 -> 90 + 0.55 * 10 = 95.5
  const std::vector<double> v{30, 100, 10, 50, 20, 90, 70, 40, 60, 80};
  const Summary s = summarize(v);
  EXPECT_NEAR(s.p05, 14.5, 1e-12);
  EXPECT_NEAR(s.p95, 95.5, 1e-12);
  EXPECT_DOUBLE_EQ(s.median, 55.0);
  EXPECT_DOUBLE_EQ(s.min, 10.0);
  EXPECT_DOUBLE_EQ(s.max, 100.0);
  EXPECT_EQ(s.count, 10);
}

TEST(Stats, PercentileOfSevenSamples) {
  // numpy.percentile([1, 2, 4, 8, 16, 32, 64], 95): position 0.95 * 6 = 5.7
  // -> 32 + 0.7 * (64 - 32) = 54.4; at 5: position 0.3 -> 1 + 0.3 * 1 = 1.3
  const std::vector<double> sorted{1, 2, 4, 8, 16, 32, 64};
  EXPECT_NEAR(percentile(sorted, 0.95), 54.4, 1e-12);
  EXPECT_NEAR(percentile(sorted, 0.05), 1.3, 1e-12);
  EXPECT_DOUBLE_EQ(percentile(sorted, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(percentile(sorted, 1.0), 64.0);
}

TEST(Stats, IgnoresNaNSamples) {
  const std::vector<double> v{kNaN, 7, kNaN, 3};
  const Summary s = summarize(v);
  EXPECT_EQ(s.count, 2);
  EXPECT_DOUBLE_EQ(s.median, 5.0);
  EXPECT_DOUBLE_EQ(s.min, 3.0);
}

TEST(Stats, EmptyIsAllNaN) {
  const Summary s = summarize(std::vector<double>{});
  EXPECT_EQ(s.count, 0);
  EXPECT_TRUE(std::isnan(s.median));
  EXPECT_TRUE(std::isnan(s.p05));
  EXPECT_TRUE(std::isnan(s.min));
  EXPECT_TRUE(std::isnan(summarize(std::vector<double>{kNaN}).median));
}

TEST(Stats, SingleSample) {
  const Summary s = summarize(std::vector<double>{42});
  EXPECT_DOUBLE_EQ(s.p05, 42);
  EXPECT_DOUBLE_EQ(s.p95, 42);
}

TEST(Stats, PearsonPerfectAndInverse) {
  const std::vector<double> x{1, 2, 3, 4};
  const std::vector<double> y{10, 20, 30, 40};
  const std::vector<double> z{8, 6, 4, 2};
  EXPECT_NEAR(pearson(x, y), 1.0, 1e-12);
  EXPECT_NEAR(pearson(x, z), -1.0, 1e-12);
}

TEST(Stats, PearsonKnownValueSkippingNaN) {
  // Finite pairs: (1,2), (2,1), (3,4). mean x = 2, mean y = 7/3.
  // sxy = (-1)(-1/3) + 0 + (1)(5/3) = 2; sxx = 2; syy = 1/9 + 16/9 + 25/9 = 42/9
  // r = 2 / sqrt(2 * 42/9) = 0.6546536707...
  const std::vector<double> x{1, 2, kNaN, 3, 100};
  const std::vector<double> y{2, 1, 50, 4, kNaN};
  EXPECT_NEAR(pearson(x, y), 0.6546536707079771, 1e-12);
}

TEST(Stats, PearsonUndefinedIsNaN) {
  EXPECT_TRUE(std::isnan(pearson(std::vector<double>{1, 1, 1}, std::vector<double>{1, 2, 3})));
  EXPECT_TRUE(std::isnan(pearson(std::vector<double>{1}, std::vector<double>{2})));
}

// summarize() selects ranks instead of sorting: it must give what the
// sorted percentiles give, ties and all, at every size.
TEST(Stats, SummaryAgreesWithSortedPercentiles) {
  std::mt19937 random(7);
  for (std::size_t n : {1u, 2u, 3u, 20u, 21u, 1000u, 4097u}) {
    std::vector<double> v(n);
    std::uniform_int_distribution<int> value(0, 50);  // many ties
    for (double& x : v) x = value(random) * 0.5;
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const Summary s = summarize(v);
    EXPECT_EQ(s.median, percentile(sorted, 0.5)) << n;
    EXPECT_EQ(s.p05, percentile(sorted, 0.05)) << n;
    EXPECT_EQ(s.p95, percentile(sorted, 0.95)) << n;
    EXPECT_EQ(s.min, sorted.front()) << n;
    EXPECT_EQ(s.max, sorted.back()) << n;
  }
}

TEST(Stats, MeanIsNaNWithoutValuesOrWithANaN) {
  EXPECT_DOUBLE_EQ(mean(std::vector<double>{300.0, 500.0, 520.0}), 440.0);
  EXPECT_TRUE(std::isnan(mean(std::vector<double>{})));
  EXPECT_TRUE(std::isnan(mean(std::vector<double>{1.0, std::nan("")})));
}

}  // namespace
}  // namespace cumap
