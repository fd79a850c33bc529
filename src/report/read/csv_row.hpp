#pragma once
// One record of a CSV that cumap wrote (pairs.csv for --resume, barrier.csv
// or contention.csv of an older set), read back: each cell found by its
// column's name and checked as this cumap writes it (decimal numbers only,
// no nan or inf, integers in their type's range), and every complaint in one
// wording, naming the file, line and column (matrix CSVs' cells too):
//   pairs.csv line 3, column iters: '1e300' is not a whole decimal number
#include <cstddef>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cumap/error.hpp"

namespace cumap {

// The one wording: "<source> line <n>, column <column>: '<cell>' <why>",
// the cell shown on one short line (without a source: "line <n>, ...").
UsageError bad_cell(std::string_view source, std::size_t line, std::string_view column, std::string_view cell,
                    std::string_view why);

// A file's header: its columns by name. UsageError for a column named
// twice or one of `needed` missing.
class CsvColumns {
 public:
  CsvColumns(std::string source, const std::vector<std::string>& header, std::initializer_list<const char*> needed);
  const std::string& source() const { return source_; }
  bool has(std::string_view name) const { return index_.find(name) != index_.end(); }
  std::size_t at(std::string_view name) const { return index_.find(name)->second; }
  std::size_t size() const { return size_; }

 private:
  std::string source_;
  std::map<std::string, std::size_t, std::less<>> index_;
  std::size_t size_ = 0;
};

class CsvRow {
 public:
  // UsageError for a record whose field count is not the header's.
  CsvRow(const CsvColumns& columns, const std::vector<std::string>& fields, std::size_t line);

  bool has(std::string_view column) const { return columns_.has(column); }
  const std::string& text(std::string_view column) const { return fields_[columns_.at(column)]; }
  std::size_t line() const { return line_; }

  [[noreturn]] void refuse(std::string_view column, std::string_view why) const;

  // A whole number from `low` to `high`, written in decimal digits (a sign
  // only where `low` is negative).
  long long whole(std::string_view column, long long low, long long high) const;
  unsigned long long whole_unsigned(std::string_view column, unsigned long long high) const;
  int whole_int(std::string_view column, int low) const;
  // A finite decimal number, or NaN for an empty cell (a value that does not
  // exist); `non_negative` for times, which cannot be below zero.
  double number(std::string_view column, bool non_negative = false) const;
  // A unit id: "5", or across devices "g1.5".
  int unit(std::string_view column) const;

 private:
  const CsvColumns& columns_;
  const std::vector<std::string>& fields_;
  std::size_t line_;
};

}  // namespace cumap
