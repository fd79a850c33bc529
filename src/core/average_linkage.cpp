// Average-linkage clustering by the nearest-neighbour chain algorithm: O(n^2)
// time, so a thousand flag lines cluster in milliseconds. Average linkage is
// reducible (merging two mutual nearest neighbours never brings a third
// cluster closer than either was), which is what makes the chain exact: it
// builds the same tree as repeatedly merging the globally closest pair.
// row_clustering.cpp does the latter in O(n^3) for maps of at most a few
// hundred units and cuts at a given k; it is left as it is.
#include "average_linkage.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace cumap {

Dendrogram average_linkage(std::vector<double> dist, std::size_t n) {
  if (dist.size() != n * n) throw std::invalid_argument("average_linkage: distance matrix is not n x n");
  Dendrogram tree;
  tree.nodes.resize(n);
  if (n == 0) return tree;
  tree.nodes.reserve(2 * n - 1);

  // A live cluster is kept in the slot of one of its items: its row of
  // `dist`, its size and the tree node it is.
  std::vector<bool> live(n, true);
  std::vector<int> node_of_slot(n);
  std::vector<double> size(n, 1.0);
  for (std::size_t i = 0; i < n; ++i) node_of_slot[i] = static_cast<int>(i);

  std::vector<std::size_t> chain;
  std::size_t remaining = n;
  while (remaining > 1) {
    if (chain.empty())
      chain.push_back(static_cast<std::size_t>(std::find(live.begin(), live.end(), true) - live.begin()));
    const std::size_t a = chain.back();
    const bool has_prev = chain.size() >= 2;
    const std::size_t prev = has_prev ? chain[chain.size() - 2] : a;
    // Ties go to the previous chain element, so the chain always ends in a
    // reciprocal pair (and never cycles); otherwise to the lowest slot.
    std::size_t b = prev;
    double best = has_prev ? dist[a * n + prev] : std::numeric_limits<double>::infinity();
    for (std::size_t x = 0; x < n; ++x) {
      if (!live[x] || x == a) continue;
      if (dist[a * n + x] < best) {
        best = dist[a * n + x];
        b = x;
      }
    }
    if (!(has_prev && b == prev)) {
      chain.push_back(b);
      continue;
    }
    chain.pop_back();
    chain.pop_back();
    const std::size_t keep = std::min(a, b), gone = std::max(a, b);
    const double wk = size[keep], wg = size[gone];
    for (std::size_t x = 0; x < n; ++x) {
      if (!live[x] || x == keep || x == gone) continue;
      const double d = (wk * dist[keep * n + x] + wg * dist[gone * n + x]) / (wk + wg);
      dist[keep * n + x] = dist[x * n + keep] = d;
    }
    Dendrogram::Node merged;
    merged.left = node_of_slot[keep];
    merged.right = node_of_slot[gone];
    merged.height = best;
    merged.size = tree.nodes[static_cast<std::size_t>(merged.left)].size +
                  tree.nodes[static_cast<std::size_t>(merged.right)].size;
    tree.nodes.push_back(merged);
    node_of_slot[keep] = static_cast<int>(tree.nodes.size()) - 1;
    size[keep] = wk + wg;
    live[gone] = false;
    --remaining;
  }
  return tree;
}

std::vector<int> leaves_below(const Dendrogram& tree, int node) {
  std::vector<int> leaves;
  std::vector<int> stack{node};
  while (!stack.empty()) {
    const int x = stack.back();
    stack.pop_back();
    if (tree.is_leaf(x)) {
      leaves.push_back(x);
    } else {
      stack.push_back(tree.nodes[static_cast<std::size_t>(x)].left);
      stack.push_back(tree.nodes[static_cast<std::size_t>(x)].right);
    }
  }
  std::sort(leaves.begin(), leaves.end());
  return leaves;
}

}  // namespace cumap
