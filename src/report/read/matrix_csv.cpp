// A matrix CSV read back, for `cumap render` (matrix_csv.hpp): libcsv in its
// lenient mode, streaming, as cumap wrote it or a spreadsheet saved it back.
#include "report/read/matrix_csv.hpp"

#include <csv.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "core/units.hpp"
#include "cumap/error.hpp"
#include "report/read/checked_file.hpp"
#include "report/read/csv_row.hpp"

namespace cumap {

namespace {

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

// A row or column id: an integer, or "g<device>.<unit>" across devices.
std::optional<int> unit_id_of(std::string_view s) {
  if (const auto id = parse_int(s)) return id;
  return parse_unit_id(s);
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

bool blank(std::string_view field) { return trimmed(field).empty(); }

// A cell that is not what it should be, in the words of every CSV cumap
// reads back (bad_cell): columns by their place, from 1.
std::string bad(int line, std::size_t index, std::string_view field, std::string_view why) {
  return bad_cell("", static_cast<std::size_t>(line), std::to_string(index + 1), field, why).what();
}

// Turns libcsv's callbacks straight into the matrix: every cell is parsed
// as it arrives and only its double is kept, so memory is 8 bytes a cell
// (storing the fields as strings first cost about 60). libcsv is C: the
// callbacks never throw; they record the first error, which feed() and
// finish() throw after libcsv has returned.
//
// Line numbers: CSV_REPALL_NL makes libcsv report every line end, so that
// blank lines and the LF of a CRLF pair are seen and the numbers stay right.
// Records whose cells are all blank are held back: spreadsheets end a sheet
// with them, and only when real data follows is the first one an error.
class MatrixCsvReader {
 public:
  // `input_bytes`: the size of the whole input, if known; bounds how much is reserved.
  explicit MatrixCsvReader(std::size_t input_bytes) : input_bytes_(input_bytes) {
    if (csv_init(&parser_, CSV_REPALL_NL) != 0) throw RuntimeFailure("libcsv: cannot initialise the parser");
  }
  ~MatrixCsvReader() { csv_free(&parser_); }
  MatrixCsvReader(const MatrixCsvReader&) = delete;
  MatrixCsvReader& operator=(const MatrixCsvReader&) = delete;

  void feed(std::string_view chunk) {
    if (at_start_) {
      constexpr std::string_view kBom = "\xEF\xBB\xBF";
      if (chunk.starts_with(kBom)) chunk.remove_prefix(kBom.size());
      at_start_ = false;
    }
    if (csv_parse(&parser_, chunk.data(), chunk.size(), on_field, on_row_end, this) != chunk.size())
      throw UsageError(fmt::format("line {}: {}", line_, csv_strerror(csv_error(&parser_))));
    if (fatal_) throw UsageError(*fatal_);
  }

  ValueMatrix finish() {
    if (csv_fini(&parser_, on_field, on_row_end, this) != 0)
      throw UsageError(fmt::format("line {}: {}", line_, csv_strerror(csv_error(&parser_))));
    if (fatal_) throw UsageError(*fatal_);
    if (!have_header_) throw UsageError("line 1: the file is empty");
    const std::size_t n = units_.size();
    if (rows_ != n)
      throw UsageError(fmt::format("line {}: the matrix is not square: {} columns but {} rows", last_record_line_,
                                   n, rows_));
    if (row_error_) throw UsageError(*row_error_);
    ValueMatrix m;
    m.units = std::move(units_);
    m.values = std::move(values_);
    return m;
  }

 private:
  static void on_field(void* data, std::size_t len, void* self) {
    static_cast<MatrixCsvReader*>(self)->field(
        data ? std::string_view(static_cast<const char*>(data), len) : std::string_view());
  }
  static void on_row_end(int end, void* self) { static_cast<MatrixCsvReader*>(self)->row_end(end); }

  void field(std::string_view text) {
    if (fatal_) return;
    if (fields_ == 0) {
      record_line_ = line_;
      record_blank_ = true;
      record_error_.reset();
      record_start_ = values_.size();
    }
    const std::size_t index = fields_++;
    record_blank_ = record_blank_ && blank(text);
    if (!have_header_) return header_field(index, text);
    if (rows_ >= units_.size()) return;  // too many rows: reported by finish(), nothing to keep
    if (index == 0) {
      const auto id = unit_id_of(text);
      if (!id) return note(bad(line_, index, text, "is not a unit id"));
      if (*id != units_[rows_])
        note(fmt::format("line {}: row unit {} where the header's order expects {}", line_, *id, units_[rows_]));
      return;
    }
    if (index > units_.size()) return;  // a ragged row: reported at its end
    const auto v = parse_cell(text);
    if (!v) note(bad(line_, index, text, "is not a number"));
    values_.push_back(v.value_or(kNaN));
  }

  void header_field(std::size_t index, std::string_view text) {
    if (index == 0) return;  // the corner cell, "unit"
    const auto id = unit_id_of(text);
    if (!id) return note(bad(line_, index, text, "is not a unit id"));
    if (!seen_.insert(*id).second) return note(fmt::format("line {}: unit {} appears twice", line_, *id));
    units_.push_back(*id);
  }

  // The first problem of the current record; which one wins is decided at its end.
  void note(std::string message) {
    if (!record_error_) record_error_ = std::move(message);
  }

  void row_end(int end) {
    const bool had_fields = fields_ > 0;
    if (had_fields && !fatal_) record_end();
    fields_ = 0;
    const bool lf_of_crlf = end == '\n' && previous_end_ == '\r' && !had_fields;
    if ((end == '\n' || end == '\r') && !lf_of_crlf) ++line_;
    previous_end_ = end;
  }

  void record_end() {
    if (record_blank_) {
      // Perhaps the sheet's trailing padding: set aside until data follows.
      if (held_blank_records_++ == 0) held_blank_error_ = blank_record_error();
      if (have_header_) {
        values_.resize(record_start_);
      } else {
        units_.clear();
        seen_.clear();
      }
      return;
    }
    if (held_blank_records_ > 0) {
      // Data after a blank record: the blank one was meant as a row after all.
      if (!have_header_) return void(fatal_ = held_blank_error_);
      rows_ += held_blank_records_;
      if (!row_error_) row_error_ = held_blank_error_;
      held_blank_records_ = 0;
    }
    last_record_line_ = record_line_;
    if (!have_header_) return header_end();
    if (rows_ < units_.size()) {
      const std::size_t want = units_.size() + 1;
      if (fields_ != want)
        record_error_ = fmt::format("line {}: {} cells where the header has {}", record_line_, fields_, want);
      values_.resize(record_start_ + units_.size(), kNaN);
      if (record_error_ && !row_error_) row_error_ = record_error_;
    }
    ++rows_;
  }

  void header_end() {
    have_header_ = true;
    if (record_error_) return void(fatal_ = record_error_);
    if (units_.empty()) return void(fatal_ = fmt::format("line {}: the header names no units", record_line_));
    // Reserved once, so that growing never holds two copies. Each cell takes
    // at least one byte of input: a header naming a million units in a
    // small file does not reserve terabytes.
    values_.reserve(std::min(units_.size() * units_.size(), input_bytes_));
  }

  // What a blank record would be reported as, were it a header or a row.
  std::string blank_record_error() const {
    if (!have_header_)
      return fields_ <= 1 ? fmt::format("line {}: the header names no units", record_line_)
                          : bad(record_line_, 1, "", "is not a unit id");
    if (fields_ != units_.size() + 1)
      return fmt::format("line {}: {} cells where the header has {}", record_line_, fields_, units_.size() + 1);
    return bad(record_line_, 0, "", "is not a unit id");
  }

  csv_parser parser_{};
  std::size_t input_bytes_ = 0;
  bool at_start_ = true;
  int line_ = 1;
  int previous_end_ = 0;  // the terminator of the previous row-end callback

  // The record being read.
  std::size_t fields_ = 0;
  int record_line_ = 0;  // physical line the record starts on
  bool record_blank_ = true;
  std::size_t record_start_ = 0;  // its first cell in values_
  std::optional<std::string> record_error_;

  bool have_header_ = false;
  std::vector<int> units_;
  std::set<int> seen_;
  std::vector<double> values_;  // row-major, as the rows arrive
  std::size_t rows_ = 0;
  int last_record_line_ = 0;
  std::size_t held_blank_records_ = 0;
  std::string held_blank_error_;
  std::optional<std::string> row_error_;  // the first bad row, reported after the shape
  std::optional<std::string> fatal_;      // a bad header: nothing after it matters
};

}  // namespace

ValueMatrix parse_matrix_csv(std::string_view text) {
  MatrixCsvReader reader(text.size());
  reader.feed(text);
  return reader.finish();
}

ValueMatrix read_matrix_csv(const std::filesystem::path& path) {
  const std::string shown = printable_excerpt(path.string(), 120);
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  MatrixCsvReader reader(ec ? std::size_t{0}
                            : static_cast<std::size_t>(std::min<std::uintmax_t>(bytes, kMatrixCsvRead.max_bytes)));
  // In chunks: the file is never held whole, only the matrix it describes.
  try {
    read_checked_file_in_chunks(path, kMatrixCsvRead, [&](std::string_view chunk) { reader.feed(chunk); });
  } catch (const FileReadError& e) {
    throw UsageError(fmt::format("cannot read {}", e.what()));
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", shown, e.what()));
  }
  try {
    return reader.finish();
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", shown, e.what()));
  }
}

}  // namespace cumap
