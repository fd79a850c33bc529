#pragma once
#include <span>
#include <vector>

#include "cumap/values.hpp"

namespace cumap {


// Percentiles by linear interpolation between closest ranks (numpy's default).
Summary summarize(std::span<const double> samples);
double percentile(std::span<const double> sorted, double q);  // q in [0,1]
// summarize(values).median alone, for millions of values (a map's cycles):
// one selection instead of three, no minimum or maximum.
double median(std::vector<double> values);

// The arithmetic mean; NaN when `values` is empty or holds a NaN.
double mean(std::span<const double> values);

// Pearson correlation over positions where both are finite.
double pearson(std::span<const double> x, std::span<const double> y);

}  // namespace cumap
