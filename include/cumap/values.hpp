#pragma once
// The numbers every result is made of: a matrix of values by unit, the order
// statistics of a set of samples, and the NaN that marks a missing value.
#include <cstddef>
#include <limits>
#include <vector>

namespace cumap {

// Missing values (the diagonal, a pair not measured, a timed-out cell).
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A square matrix of values with the unit ids of its rows and columns.
// NaN marks the diagonal, missing and timed-out cells.
struct ValueMatrix {
  std::vector<int> units;
  std::vector<double> values;  // row-major, units.size()^2

  std::size_t size() const { return units.size(); }
  double at(std::size_t r, std::size_t c) const { return values[r * units.size() + c]; }
  double& at(std::size_t r, std::size_t c) { return values[r * units.size() + c]; }
  static ValueMatrix filled(std::vector<int> units, double v);
  // Rows and columns permuted into `order` (a permutation of `units`).
  ValueMatrix reordered(const std::vector<int>& order) const;
};

// Order statistics of one pair's samples. NaN everywhere when empty.
struct Summary {
  double median;
  double p05;
  double p95;
  double min;
  double max;
  int count;
  bool operator==(const Summary&) const = default;
};

}  // namespace cumap
