#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include "cumap/values.hpp"

namespace cumap {

// NxN matrix CSV: header row "unit,<id>,<id>...", then one row per unit with
// its id first; empty cells for NaN. RFC 4180, numbers with 3 decimals.
std::string matrix_csv(const ValueMatrix& m);
// `m` as its matrix CSV holds it: every value as written (3 decimals) and
// read back. A run draws its heatmaps from this, so that `cumap render` of
// the CSV draws the same picture.
ValueMatrix as_written(ValueMatrix m);
// Reads a matrix CSV (cumap's, or one a spreadsheet saved back). Throws
// UsageError with the line number on ragged rows, non-numeric or non-square input.
ValueMatrix parse_matrix_csv(std::string_view text);
ValueMatrix read_matrix_csv(const std::filesystem::path& path);

}  // namespace cumap
