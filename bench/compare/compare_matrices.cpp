// bench_compare A.csv B.csv: how well two matrix CSVs of cumap agree (the
// repeatability check of bench/RESULTS.md): Pearson r over the cells both
// have, and the median relative difference |a-b|/a.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

#include "report/read/matrix_csv.hpp"
#include "core/stats.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bench_compare A.csv B.csv\n");
    return 2;
  }
  try {
    const cumap::ValueMatrix a = cumap::read_matrix_csv(argv[1]);
    cumap::ValueMatrix b = cumap::read_matrix_csv(argv[2]);
    // Maps of one chip in different display orders compare cell by cell once
    // b is put in a's order; different unit sets do not compare.
    if (std::is_permutation(a.units.begin(), a.units.end(), b.units.begin(), b.units.end())) b = b.reordered(a.units);
    if (a.units != b.units) {
      std::fprintf(stderr, "bench_compare: the matrices have different units\n");
      return 2;
    }
    std::vector<double> x, y, rel;
    for (std::size_t i = 0; i < a.values.size(); ++i) {
      if (!std::isfinite(a.values[i]) || !std::isfinite(b.values[i])) continue;
      x.push_back(a.values[i]);
      y.push_back(b.values[i]);
      rel.push_back(std::fabs(a.values[i] - b.values[i]) / a.values[i]);
    }
    const cumap::Summary r = cumap::summarize(rel);
    std::printf("cells %zu  pearson_r %.5f  median_rel_diff %.4f%%  p95_rel_diff %.4f%%\n", x.size(),
                cumap::pearson(x, y), 100.0 * r.median, 100.0 * r.p95);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_compare: %s\n", e.what());
    return 2;
  }
}
