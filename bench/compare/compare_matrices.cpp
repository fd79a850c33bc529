// bench_compare A.csv B.csv: how well two matrix CSVs of cumap agree (the
// repeatability check of bench/RESULTS.md): Pearson r over the cells both
// have, and the median and p95 relative difference |b-a|/a, in one line for
// the logs. The comparison is `cumap compare`'s (core/run_comparison.hpp),
// which compares whole runs; this takes two files of any names.
#include <cstdio>
#include <exception>

#include "core/run_comparison.hpp"
#include "report/read/matrix_csv.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bench_compare A.csv B.csv\n");
    return 2;
  }
  try {
    const auto d = cumap::compare_matrices(cumap::read_matrix_csv(argv[1]), cumap::read_matrix_csv(argv[2]));
    if (!d) {
      std::fprintf(stderr, "bench_compare: the matrices have different units\n");
      return 2;
    }
    std::printf("cells %zu  pearson_r %.5f  median_rel_diff %.4f%%  p95_rel_diff %.4f%%\n", d->count, d->pearson_r,
                100.0 * d->median_rel_diff, 100.0 * d->p95_rel_diff);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_compare: %s\n", e.what());
    return 2;
  }
}
