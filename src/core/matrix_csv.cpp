// The NxN matrix CSV: written by cumap, read back by `cumap render`, possibly
// after a trip through a spreadsheet. Reading uses libcsv in its lenient mode.
#include <csv.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "cumap/outputs.hpp"

namespace cumap {

std::string matrix_csv(const ValueMatrix& m) {
  std::string out = "unit";
  for (int u : m.units) out += fmt::format(",{}", u);
  out += '\n';
  for (std::size_t r = 0; r < m.size(); ++r) {
    out += fmt::format("{}", m.units[r]);
    for (std::size_t c = 0; c < m.size(); ++c) {
      const double v = m.at(r, c);
      out += ',';
      if (std::isfinite(v)) out += fmt::format("{:.3f}", v);  // NaN (and inf) stay empty
    }
    out += '\n';
  }
  return out;
}

namespace {

struct Record {
  std::vector<std::string> fields;
  int line = 0;  // physical line the record starts on
};

// Collects records from libcsv's callbacks and keeps count of physical lines.
// CSV_REPALL_NL makes libcsv report every line end, so that blank lines and
// the LF of a CRLF pair are seen and the line numbers in errors stay right.
struct Collector {
  std::vector<Record> records;
  Record current;
  int line = 1;
  int previous_end = 0;  // the terminator of the previous callback

  static void on_field(void* data, std::size_t len, void* self_ptr) {
    auto& self = *static_cast<Collector*>(self_ptr);
    if (self.current.fields.empty()) self.current.line = self.line;
    self.current.fields.emplace_back(data ? static_cast<const char*>(data) : "", data ? len : 0);
  }

  static void on_row_end(int end, void* self_ptr) {
    auto& self = *static_cast<Collector*>(self_ptr);
    const bool had_fields = !self.current.fields.empty();
    if (had_fields) self.records.push_back(std::move(self.current));
    self.current = Record{};
    const bool lf_of_crlf = end == '\n' && self.previous_end == '\r' && !had_fields;
    if ((end == '\n' || end == '\r') && !lf_of_crlf) ++self.line;
    self.previous_end = end;
  }
};

std::vector<Record> split_records(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text.starts_with(kBom)) text.remove_prefix(kBom.size());

  csv_parser parser;
  if (csv_init(&parser, CSV_REPALL_NL) != 0) throw RuntimeFailure("libcsv: cannot initialise the parser");
  Collector collector;
  const std::size_t parsed = csv_parse(&parser, text.data(), text.size(), Collector::on_field,
                                       Collector::on_row_end, &collector);
  const int status = parsed == text.size() ? csv_fini(&parser, Collector::on_field, Collector::on_row_end,
                                                      &collector)
                                           : csv_error(&parser);
  const std::string reason = status != 0 ? csv_strerror(csv_error(&parser)) : "";
  csv_free(&parser);
  if (status != 0) throw UsageError(fmt::format("line {}: {}", collector.line, reason));

  // Spreadsheets like to end a sheet with rows of empty cells; those are not data.
  auto& records = collector.records;
  const auto all_empty = [](const Record& r) {
    for (const std::string& f : r.fields)
      if (f.find_first_not_of(" \t") != std::string::npos) return false;
    return true;
  };
  while (!records.empty() && all_empty(records.back())) records.pop_back();
  return records;
}

std::string_view trimmed(std::string_view s) {
  const std::size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::optional<int> parse_int(std::string_view s) {
  s = trimmed(s);
  if (s.starts_with('+')) s.remove_prefix(1);
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// A cell: empty or "nan" is a missing value; otherwise a finite number in
// plain or exponent notation ("12.5", "1.25E+01"), as spreadsheets save them.
std::optional<double> parse_cell(std::string_view s) {
  s = trimmed(s);
  if (s.empty()) return kNaN;
  if (s.starts_with('+')) s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  if (std::isnan(v)) return kNaN;
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

ValueMatrix parse_matrix_csv(std::string_view text) {
  const std::vector<Record> records = split_records(text);
  if (records.empty()) throw UsageError("line 1: the file is empty");

  const Record& header = records.front();
  const std::size_t n = header.fields.size() - 1;
  if (n == 0) throw UsageError(fmt::format("line {}: the header names no units", header.line));
  std::vector<int> units;
  std::set<int> seen;
  for (std::size_t c = 1; c < header.fields.size(); ++c) {
    const auto id = parse_int(header.fields[c]);
    if (!id) throw UsageError(fmt::format("line {}: unit id '{}' is not an integer", header.line, header.fields[c]));
    if (!seen.insert(*id).second) throw UsageError(fmt::format("line {}: unit {} appears twice", header.line, *id));
    units.push_back(*id);
  }
  if (records.size() - 1 != n)
    throw UsageError(fmt::format("line {}: the matrix is not square: {} columns but {} rows", records.back().line,
                                 n, records.size() - 1));

  ValueMatrix m = ValueMatrix::filled(units, kNaN);
  for (std::size_t r = 0; r < n; ++r) {
    const Record& row = records[r + 1];
    if (row.fields.size() != header.fields.size())
      throw UsageError(fmt::format("line {}: {} cells where the header has {}", row.line, row.fields.size(),
                                   header.fields.size()));
    const auto id = parse_int(row.fields[0]);
    if (!id) throw UsageError(fmt::format("line {}: unit id '{}' is not an integer", row.line, row.fields[0]));
    if (*id != units[r])
      throw UsageError(fmt::format("line {}: row unit {} where the header's order expects {}", row.line, *id,
                                   units[r]));
    for (std::size_t c = 0; c < n; ++c) {
      const auto v = parse_cell(row.fields[c + 1]);
      if (!v) throw UsageError(fmt::format("line {}: '{}' is not a number", row.line, row.fields[c + 1]));
      m.at(r, c) = *v;
    }
  }
  return m;
}

ValueMatrix read_matrix_csv(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw UsageError(fmt::format("cannot read {}: it is a directory", path.string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw UsageError(fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
  try {
    return parse_matrix_csv(text.str());
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", path.string(), e.what()));
  }
}

}  // namespace cumap
