// How well two maps (or any paired values) agree: correlation for the shape,
// the median relative difference for the level.
#include <cmath>
#include <stdexcept>
#include <vector>

#include "cumap/backend.hpp"
#include "core/homes.hpp"
#include "core/stats.hpp"

namespace cumap {

Agreement agreement(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw std::invalid_argument("agreement: the two value lists differ in length");
  std::vector<double> kept_x, kept_y, rel_diff;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    kept_x.push_back(x[i]);
    kept_y.push_back(y[i]);
    const double mean = (x[i] + y[i]) / 2.0;
    // Two zeros agree exactly; a zero mean of unequal values has no relative size.
    if (mean != 0.0) rel_diff.push_back(std::fabs(x[i] - y[i]) / std::fabs(mean));
    else if (x[i] == y[i]) rel_diff.push_back(0.0);
  }
  Agreement a;
  a.n = kept_x.size();
  a.pearson_r = pearson(kept_x, kept_y);
  a.median_rel_diff = summarize(rel_diff).median;
  a.median_x = summarize(kept_x).median;
  a.median_y = summarize(kept_y).median;
  return a;
}

Agreement agreement(const ValueMatrix& x, const ValueMatrix& y) {
  if (x.units != y.units) throw std::invalid_argument("agreement: the two maps have different units");
  return agreement(x.values, y.values);  // the diagonal is NaN, so it drops out
}

}  // namespace cumap
