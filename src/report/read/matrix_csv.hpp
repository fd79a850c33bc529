#pragma once
// A matrix CSV read back (the file report/matrix_csv.hpp writes): cumap's,
// or one a spreadsheet saved back.
#include <filesystem>
#include <string_view>

#include "cumap/values.hpp"

namespace cumap {

// UsageError with the line number on ragged rows, non-numeric or
// non-square input; a bad cell in the words of csv_row.hpp's bad_cell.
ValueMatrix parse_matrix_csv(std::string_view text);
ValueMatrix read_matrix_csv(const std::filesystem::path& path);

}  // namespace cumap
