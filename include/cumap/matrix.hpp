#pragma once
#include <cstddef>
#include <vector>

#include "cumap/backend.hpp"
#include "cumap/placement.hpp"
#include "cumap/stats.hpp"

namespace cumap {

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

// Statistics of one pair (over samples) for one flag copy: one row of pairs.csv.
struct PairStats {
  int a = 0;
  int b = 0;
  int copy = 0;
  Summary rtt_ns{};            // round trip, over samples
  double cycles_median = kNaN; // round trip in device cycles
  double cold_ns = kNaN;       // first round trip alone
  int iters = 0;
  bool timed_out = false;
  double oneway_median_ns() const { return rtt_ns.median / 2.0; }
};

// The whole result for one placement.
struct LatencyMap {
  Placement placement = Placement::SameLine;
  std::vector<int> units;
  bool ordered = false;
  int iters = 0;
  std::vector<PairStats> pairs;  // every pair x copy

  // Median one-way latency in ns per cell: the median over copies of each
  // copy's median. Unordered maps are mirrored; ordered ones are not.
  ValueMatrix oneway_ns() const;
  // Largest minus smallest per-copy median one-way latency (0 with one copy).
  ValueMatrix copy_spread_ns() const;
  std::vector<PairStats> timed_out() const;
};

// Reduces raw measurements to statistics. Parallel over pairs (OpenMP).
LatencyMap summarize_measurements(const std::vector<PairMeasurement>& raw, const Schedule& schedule,
                                  const MeasureSpec& spec);

}  // namespace cumap
