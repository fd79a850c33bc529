#pragma once
#include <string>

#include "cumap/values.hpp"

namespace cumap {

// NxN matrix CSV: header row "unit,<id>,<id>...", then one row per unit with
// its id first; empty cells for NaN. RFC 4180, numbers with 3 decimals.
// `cumap render` reads it back (report/read/matrix_csv.hpp).
std::string matrix_csv(const ValueMatrix& m);
// `m` as its matrix CSV holds it: every value as written (3 decimals) and
// read back. A run draws its heatmaps from this, so that `cumap render` of
// the CSV draws the same picture.
ValueMatrix as_written(ValueMatrix m);

}  // namespace cumap
