#include "report/read/csv_records.hpp"

#include <algorithm>

#include <csv.h>
#include <fmt/format.h>

#include "cumap/error.hpp"

namespace cumap {
namespace {

// libcsv's callbacks, gathering fields into records. CSV_REPALL_NL makes it
// report every line end, so that line numbers count blank lines and the LF
// of a CRLF pair once.
struct Gatherer {
  std::vector<CsvRecord> records;
  CsvRecord current;
  std::size_t line = 1;
  int previous_end = 0;

  static void on_field(void* data, std::size_t len, void* self) {
    auto& g = *static_cast<Gatherer*>(self);
    if (g.current.fields.empty()) g.current.line = g.line;
    g.current.fields.emplace_back(data ? static_cast<const char*>(data) : "", data ? len : 0);
  }
  static void on_row_end(int end, void* self) {
    auto& g = *static_cast<Gatherer*>(self);
    const bool had_fields = !g.current.fields.empty();
    if (std::any_of(g.current.fields.begin(), g.current.fields.end(), [](const std::string& f) { return !f.empty(); }))
      g.records.push_back(std::move(g.current));
    g.current = CsvRecord{};
    const bool lf_of_crlf = end == '\n' && g.previous_end == '\r' && !had_fields;
    if ((end == '\n' || end == '\r') && !lf_of_crlf) ++g.line;
    g.previous_end = end;
  }
};

}  // namespace

std::vector<CsvRecord> read_csv_records(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text.starts_with(kBom)) text.remove_prefix(kBom.size());
  csv_parser parser{};
  if (csv_init(&parser, CSV_REPALL_NL) != 0) throw RuntimeFailure("libcsv: cannot initialise the parser");
  Gatherer g;
  const bool parsed = csv_parse(&parser, text.data(), text.size(), Gatherer::on_field, Gatherer::on_row_end, &g) ==
                          text.size() &&
                      csv_fini(&parser, Gatherer::on_field, Gatherer::on_row_end, &g) == 0;
  const std::string why = parsed ? std::string() : csv_strerror(csv_error(&parser));
  csv_free(&parser);
  if (!parsed) throw UsageError(fmt::format("line {}: {}", g.line, why));
  return std::move(g.records);
}

}  // namespace cumap
