#pragma once
#include <span>

namespace cumap {

// Order statistics of one pair's samples. NaN everywhere when empty.
struct Summary {
  double median;
  double p05;
  double p95;
  double min;
  double max;
  int count;
};

// Percentiles by linear interpolation between closest ranks (numpy's default).
Summary summarize(std::span<const double> samples);
double percentile(std::span<const double> sorted, double q);  // q in [0,1]

// The arithmetic mean; NaN when `values` is empty or holds a NaN.
double mean(std::span<const double> values);

// Pearson correlation over positions where both are finite.
double pearson(std::span<const double> x, std::span<const double> y);

}  // namespace cumap
