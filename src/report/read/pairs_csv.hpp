#pragma once
// pairs.csv read back, for --resume (the file report/pairs_csv.hpp writes).
#include <cstddef>
#include <string_view>
#include <vector>

#include "cumap/latency_map.hpp"
#include "cumap/options.hpp"

namespace cumap {

// One row: a pair on one flag line, and which map it belongs to.
struct PlacedPairStats {
  Placement placement = Placement::SameLine;
  Path via = Path::Global;  // files of older cumaps have no via column: global
  PairStats stats;
  std::size_t line = 0;  // of pairs.csv, counting the header as line 1
};

// Every row of pairs.csv. UsageError naming the line and column of anything
// this cumap would not have written (csv_row.hpp): integers that are not
// decimal or out of their range, nan or inf, negative times or flag offsets,
// unknown placements or paths, a measured (not timed-out) row without
// samples, round trips or median. Whether the rows fit the run that
// continues them (its units, classes, lines) is the caller's to check.
std::vector<PlacedPairStats> parse_pairs_csv(std::string_view text);

}  // namespace cumap
