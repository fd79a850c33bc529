#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

#include "core/topology_discovery.hpp"

namespace cumap {
namespace {

constexpr int kUnits = 32;
constexpr int kBlocks = 4;

// Interleaved blocks (unit u in block u % 4), so recovering them needs the
// clustering and not just contiguous rows: 100 ns inside a block, 300 ns
// across, plus Gaussian noise; NaN on the diagonal as in real maps.
int planted_block(int unit) { return unit % kBlocks; }

ValueMatrix planted_matrix(double noise_ns, unsigned seed) {
  std::vector<int> units(kUnits);
  std::iota(units.begin(), units.end(), 0);
  ValueMatrix m = ValueMatrix::filled(units, 0.0);
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, noise_ns);
  for (int r = 0; r < kUnits; ++r)
    for (int c = 0; c < kUnits; ++c)
      m.at(r, c) = r == c ? kNaN : (planted_block(r) == planted_block(c) ? 100.0 : 300.0) + noise(rng);
  return m;
}

std::vector<int> planted_labels() {
  std::vector<int> labels;
  for (int u = 0; u < kUnits; ++u) labels.push_back(planted_block(u));
  return labels;
}

Topology topology_from_labels(const std::vector<int>& labels, int groups) {
  Topology t;
  t.source = "file";
  for (int g = 0; g < groups; ++g) t.groups.push_back({"G" + std::to_string(g), {}});
  for (int u = 0; u < static_cast<int>(labels.size()); ++u) t.groups[labels[u]].units.push_back(u);
  return t;
}

TEST(RowClustering, RecoversPlantedBlocks) {
  const std::vector<int> labels = cluster_rows(planted_matrix(20.0, 1), kBlocks);
  ASSERT_EQ(labels.size(), static_cast<std::size_t>(kUnits));
  // Labels follow first appearance, and the first four units sit in four blocks.
  EXPECT_EQ(labels, planted_labels());
}

TEST(RowClustering, ToleratesMissingCells) {
  ValueMatrix m = planted_matrix(20.0, 2);
  for (int c = 0; c < kUnits; c += 3) m.at(5, c) = kNaN;  // a row with timed-out pairs
  m.at(9, 17) = kNaN;
  EXPECT_DOUBLE_EQ(adjusted_rand_index(cluster_rows(m, kBlocks), planted_labels()), 1.0);
}

TEST(RowClustering, KOfOneAndKOfNAreTheExtremes) {
  const ValueMatrix m = planted_matrix(20.0, 3);
  const auto one = cluster_rows(m, 1);
  EXPECT_TRUE(std::all_of(one.begin(), one.end(), [](int l) { return l == 0; }));
  std::vector<int> each(kUnits);
  std::iota(each.begin(), each.end(), 0);
  EXPECT_EQ(cluster_rows(m, kUnits), each);
}

TEST(RowClustering, InvalidKThrows) {
  const ValueMatrix m = planted_matrix(20.0, 4);
  EXPECT_THROW(cluster_rows(m, 0), std::invalid_argument);
  EXPECT_THROW(cluster_rows(m, kUnits + 1), std::invalid_argument);
}

TEST(TopologyAgreement, HighForMatchingTopology) {
  const Topology topo = topology_from_labels(planted_labels(), kBlocks);
  EXPECT_GT(topology_agreement(planted_matrix(20.0, 5), topo), 0.9);
}

TEST(TopologyAgreement, NearZeroForShuffledTopology) {
  std::vector<int> shuffled = planted_labels();
  std::mt19937 rng(7);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  const Topology topo = topology_from_labels(shuffled, kBlocks);
  EXPECT_LT(std::abs(topology_agreement(planted_matrix(20.0, 5), topo)), 0.2);
}

TEST(TopologyAgreement, NaNWithFewerThanTwoGroups) {
  Topology one;
  one.groups.push_back({"all", planted_labels()});  // any unit ids, one group
  EXPECT_TRUE(std::isnan(topology_agreement(planted_matrix(20.0, 6), one)));
  // Groups holding only unmeasured units do not count either.
  Topology elsewhere = topology_from_labels(planted_labels(), kBlocks);
  for (auto& g : elsewhere.groups)
    for (int& u : g.units) u += 1000;
  elsewhere.groups[0].units.push_back(0);
  EXPECT_TRUE(std::isnan(topology_agreement(planted_matrix(20.0, 6), elsewhere)));
}

}  // namespace
}  // namespace cumap
