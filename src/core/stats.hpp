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

// The median over `blocks` runs of consecutive values (as equal as the count
// allows; fewer when there are fewer values) of each run's mean: the time per
// repetition of something repeated back to back, robust to a rare stall (one
// block) and to repetitions that trade time with their neighbours (a block's
// mean telescopes over them). NaN when `values` is empty or holds a NaN.
double median_of_block_means(std::span<const double> values, int blocks);

// Pearson correlation over positions where both are finite.
double pearson(std::span<const double> x, std::span<const double> y);

}  // namespace cumap
