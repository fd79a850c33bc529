// Adjusted Rand index (Hubert & Arabie 1985) from the contingency table of
// two labelings: how often pairs of items are kept together or apart by both,
// corrected so that chance agreement scores about 0.
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/topology_discovery.hpp"

namespace cumap {
namespace {

double pairs_of(double n) { return n * (n - 1.0) / 2.0; }

}  // namespace

double adjusted_rand_index(const std::vector<int>& labels_a, const std::vector<int>& labels_b) {
  if (labels_a.size() != labels_b.size())
    throw std::invalid_argument("adjusted_rand_index: labelings differ in length");

  // Ordered maps: labels are arbitrary ints (negative, sparse), and the tables
  // are small next to the O(n^2) work that produced the labels.
  std::map<std::pair<int, int>, double> cell;
  std::map<int, double> row_total;
  std::map<int, double> col_total;
  for (std::size_t i = 0; i < labels_a.size(); ++i) {
    cell[{labels_a[i], labels_b[i]}] += 1.0;
    row_total[labels_a[i]] += 1.0;
    col_total[labels_b[i]] += 1.0;
  }

  double index = 0.0;
  for (const auto& [key, n] : cell) index += pairs_of(n);
  double sum_a = 0.0;
  for (const auto& [label, n] : row_total) sum_a += pairs_of(n);
  double sum_b = 0.0;
  for (const auto& [label, n] : col_total) sum_b += pairs_of(n);

  const double all_pairs = pairs_of(static_cast<double>(labels_a.size()));
  const double expected = all_pairs > 0.0 ? sum_a * sum_b / all_pairs : 0.0;
  const double max_index = (sum_a + sum_b) / 2.0;
  // The denominator vanishes only when both labelings are one cluster or both
  // are all singletons (or there are fewer than two items): the partitions are
  // then identical, and identical partitions score 1 by definition.
  if (max_index == expected) return 1.0;
  return (index - expected) / (max_index - expected);
}

}  // namespace cumap
