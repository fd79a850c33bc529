#pragma once
// A small CSV file (one of cumap's own, or one a spreadsheet saved back) as
// records of text fields, with the line each record starts on: RFC 4180
// through libcsv, so quoted fields with commas and quotes read back whole.
// For files of a few thousand rows read whole; the matrix and pairs readers
// keep their own streaming parsers.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cumap {

struct CsvRecord {
  std::size_t line = 0;  // counting the first line as 1
  std::vector<std::string> fields;
};

// Every record with a field that is not empty, in order (blank lines and
// the empty rows spreadsheets end a sheet with are dropped); a leading UTF-8
// byte-order mark is ignored. UsageError naming the line where libcsv
// cannot go on (it reads a quote left open at the end as closed there).
std::vector<CsvRecord> read_csv_records(std::string_view text);

}  // namespace cumap
