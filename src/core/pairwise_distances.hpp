#pragma once
// The symmetric n x n distance matrix both clusterings start from (rows of a
// map, lines of a home table). Internal to src/core.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace cumap {

// distance(i, j) for i < j, mirrored; pairs it cannot compare (NaN) become
// the farthest distance seen, so they merge last instead of poisoning the
// averages. Pairs are independent: spread over the cores (row i has n-i-1).
template <typename Distance>
std::vector<double> pairwise_distances(std::size_t n, const Distance& distance) {
  std::vector<double> dist(n * n, 0.0);
#pragma omp parallel for schedule(dynamic, 16)
  for (std::ptrdiff_t si = 0; si < static_cast<std::ptrdiff_t>(n); ++si) {
    const auto i = static_cast<std::size_t>(si);
    for (std::size_t j = i + 1; j < n; ++j) dist[i * n + j] = dist[j * n + i] = distance(i, j);
  }
  double farthest = 0.0;
  for (double d : dist)
    if (std::isfinite(d)) farthest = std::max(farthest, d);
  for (double& d : dist)
    if (!std::isfinite(d)) d = farthest;
  return dist;
}

}  // namespace cumap
