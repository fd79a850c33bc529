// Structure found in a measured matrix itself: units whose rows look alike
// (same latency to everyone else) are clustered, and the clustering is
// compared with a discovered topology to say whether the topology explains
// the measurements.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "core/topology_discovery.hpp"
#include "pairwise_distances.hpp"

namespace cumap {
namespace {

// RMS difference of rows i and j over columns where both are finite. The two
// rows' own columns are left out: they hold the diagonal (NaN) and the i-j
// latency itself, which the two rows see from opposite ends.
double row_distance(const ValueMatrix& m, std::size_t i, std::size_t j) {
  double sum = 0.0;
  std::size_t count = 0;
  for (std::size_t c = 0; c < m.size(); ++c) {
    if (c == i || c == j) continue;
    const double a = m.at(i, c);
    const double b = m.at(j, c);
    if (!std::isfinite(a) || !std::isfinite(b)) continue;
    sum += (a - b) * (a - b);
    ++count;
  }
  return count > 0 ? std::sqrt(sum / static_cast<double>(count)) : kNaN;
}

// Full symmetric distance matrix (row-major, n x n).
std::vector<double> row_distances(const ValueMatrix& m) {
  return pairwise_distances(m.size(), [&](std::size_t i, std::size_t j) { return row_distance(m, i, j); });
}

// Labels 0..k-1 in order of first appearance, so equal partitions give equal
// label vectors whatever ids the caller used.
std::vector<int> relabel_by_first_appearance(const std::vector<std::size_t>& ids) {
  std::unordered_map<std::size_t, int> label_of;
  std::vector<int> labels;
  labels.reserve(ids.size());
  for (std::size_t id : ids) {
    auto [it, inserted] = label_of.try_emplace(id, static_cast<int>(label_of.size()));
    labels.push_back(it->second);
  }
  return labels;
}

}  // namespace

std::vector<int> cluster_rows(const ValueMatrix& m, int k) {
  const std::size_t n = m.size();
  if (k < 1 || static_cast<std::size_t>(k) > std::max<std::size_t>(n, 1))
    throw std::invalid_argument("cluster_rows: k must be between 1 and the number of rows");
  if (n == 0) return {};

  std::vector<double> dist = row_distances(m);
  std::vector<std::size_t> owner(n);  // the surviving row index of each row's cluster
  std::vector<double> weight(n, 1.0);  // rows per surviving cluster
  std::vector<std::size_t> alive(n);
  for (std::size_t i = 0; i < n; ++i) owner[i] = alive[i] = i;

  // Plain nearest-pair search: at most n merges over a shrinking n^2/2 scan,
  // about n^3/6 comparisons, well under a second for n = 1024. Strict '<'
  // keeps the first pair among ties, so results are deterministic.
  while (alive.size() > static_cast<std::size_t>(k)) {
    std::size_t best_x = 0, best_y = 1;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t x = 0; x < alive.size(); ++x)
      for (std::size_t y = x + 1; y < alive.size(); ++y) {
        const double d = dist[alive[x] * n + alive[y]];
        if (d < best) {
          best = d;
          best_x = x;
          best_y = y;
        }
      }
    const std::size_t keep = alive[best_x];
    const std::size_t gone = alive[best_y];
    // Average linkage (UPGMA): the merged cluster's distance to any other is
    // the size-weighted mean of its parts' distances.
    const double wk = weight[keep], wg = weight[gone];
    for (std::size_t other : alive) {
      if (other == keep || other == gone) continue;
      const double d = (wk * dist[keep * n + other] + wg * dist[gone * n + other]) / (wk + wg);
      dist[keep * n + other] = dist[other * n + keep] = d;
    }
    weight[keep] = wk + wg;
    for (std::size_t& o : owner)
      if (o == gone) o = keep;
    alive.erase(alive.begin() + static_cast<std::ptrdiff_t>(best_y));
  }
  return relabel_by_first_appearance(owner);
}

double topology_agreement(const ValueMatrix& m, const Topology& topo) {
  std::unordered_map<int, int> group_of_unit;
  for (std::size_t g = 0; g < topo.groups.size(); ++g)
    for (int u : topo.groups[g].units) group_of_unit.emplace(u, static_cast<int>(g));

  // Only groups that hold a measured unit count: a topology of the whole GPU
  // compared with a map of a few SMs must not ask for empty clusters.
  std::vector<int> topo_labels;
  std::vector<bool> group_seen(topo.groups.size(), false);
  int next_private_label = static_cast<int>(topo.groups.size());
  for (int u : m.units) {
    auto it = group_of_unit.find(u);
    if (it == group_of_unit.end()) {
      topo_labels.push_back(next_private_label++);  // ungrouped: a class of its own
    } else {
      topo_labels.push_back(it->second);
      group_seen[static_cast<std::size_t>(it->second)] = true;
    }
  }
  const auto k = static_cast<int>(std::count(group_seen.begin(), group_seen.end(), true));
  if (k < 2) return kNaN;  // one group explains everything and nothing
  return adjusted_rand_index(cluster_rows(m, k), topo_labels);
}

}  // namespace cumap
