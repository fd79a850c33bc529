#pragma once
// Average-linkage (UPGMA) hierarchical clustering of items given their
// pairwise distances, as a whole tree. Internal to the core: home discovery
// cuts the tree at a number of classes it chooses from the data, so it needs
// the tree itself rather than a flat clustering into a known k.
#include <cstddef>
#include <vector>

namespace cumap {

struct Dendrogram {
  struct Node {
    int left = -1;        // children (node indices); -1 for a leaf
    int right = -1;
    double height = 0.0;  // distance at which the children merged; 0 for a leaf
    std::size_t size = 1; // leaves below
  };
  // Leaves 0..n-1 are the items; every later node merges two earlier ones;
  // the last node is the root (empty for n = 0).
  std::vector<Node> nodes;
  int root() const { return static_cast<int>(nodes.size()) - 1; }
  bool is_leaf(int node) const { return nodes[static_cast<std::size_t>(node)].left < 0; }
};

// `dist` is n x n, symmetric, row-major, finite. Consumed (updated in place).
Dendrogram average_linkage(std::vector<double> dist, std::size_t n);

// The leaves (items) below `node`, ascending.
std::vector<int> leaves_below(const Dendrogram& tree, int node);

}  // namespace cumap
