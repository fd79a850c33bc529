#include "report/read/csv_row.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "core/units.hpp"
#include "cumap/values.hpp"

namespace cumap {

UsageError bad_cell(std::string_view source, std::size_t line, std::string_view column, std::string_view cell,
                    std::string_view why) {
  return UsageError(fmt::format("{}{}line {}, column {}: '{}' {}", source, source.empty() ? "" : " ", line,
                                printable_excerpt(column), printable_excerpt(cell), why));
}

CsvColumns::CsvColumns(std::string source, const std::vector<std::string>& header,
                       std::initializer_list<const char*> needed)
    : source_(std::move(source)), size_(header.size()) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (!index_.emplace(header[i], i).second)
      throw UsageError(fmt::format("{} has the column '{}' twice", source_, printable_excerpt(header[i])));
  for (const char* name : needed)
    if (!has(name)) throw UsageError(fmt::format("{} has no column '{}'", source_, name));
}

CsvRow::CsvRow(const CsvColumns& columns, const std::vector<std::string>& fields, std::size_t line)
    : columns_(columns), fields_(fields), line_(line) {
  if (fields.size() != columns.size())
    throw UsageError(fmt::format("{} line {}: {} fields where the header has {}", columns.source(), line,
                                 fields.size(), columns.size()));
}

void CsvRow::refuse(std::string_view column, std::string_view why) const {
  throw bad_cell(columns_.source(), line_, column, text(column), why);
}

long long CsvRow::whole(std::string_view column, long long low, long long high) const {
  const std::string& t = text(column);
  long long v = 0;
  const char* end = t.data() + t.size();
  const auto [ptr, ec] = std::from_chars(t.data(), end, v, 10);
  if (t.empty()) refuse(column, "is empty; a whole number is expected");
  if (ec == std::errc::invalid_argument || ptr != end) refuse(column, "is not a whole decimal number");
  if (ec == std::errc::result_out_of_range || v < low || v > high || (low >= 0 && t.front() == '-'))
    refuse(column, fmt::format("is out of range ({} to {})", low, high));
  return v;
}

int CsvRow::whole_int(std::string_view column, int low) const {
  return static_cast<int>(whole(column, low, std::numeric_limits<int>::max()));
}

double CsvRow::number(std::string_view column, bool non_negative) const {
  const std::string& t = text(column);
  if (t.empty()) return kNaN;
  double v = 0;
  const char* end = t.data() + t.size();
  // from_chars takes no sign '+', no spaces and no hex (general format); it
  // does take "inf" and "nan", which no cumap writes (empty cells are).
  const auto [ptr, ec] = std::from_chars(t.data(), end, v, std::chars_format::general);
  if (ec != std::errc{} || ptr != end) refuse(column, "is not a number");
  if (!std::isfinite(v)) refuse(column, "is not a finite number");
  if (non_negative && v < 0) refuse(column, "is negative; a time cannot be");
  return v;
}

int CsvRow::unit(std::string_view column) const {
  const auto id = parse_unit_id(text(column));
  if (!id || text(column).find_first_of(" \t") != std::string::npos) refuse(column, "is not a unit id");
  return *id;
}

}  // namespace cumap
