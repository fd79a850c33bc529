#include "report/read/sync_csv.hpp"

#include <charconv>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "core/units.hpp"
#include "cumap/error.hpp"
#include "report/read/checked_file.hpp"
#include "report/read/csv_records.hpp"
#include "report/read/csv_row.hpp"

namespace cumap {
namespace {

SyncCaseResult case_of(const CsvRow& row, const std::string& what_column) {
  SyncCaseResult c;
  c.what = row.text(what_column);
  c.label.set = row.text("set");
  c.label.k = row.whole_int("k", 1);
  c.label.counter_home = row.text("counter_home");
  if (row.has("counter_gpu")) c.label.counter_gpu = row.text("counter_gpu");
  if (row.has("counter_class") && !row.text("counter_class").empty())
    c.label.counter_class = row.whole_int("counter_class", -1);
  // "0 1 5": the unit ids, participant 0 first (`cumap query` sets them beside its own).
  if (row.has("participants")) {
    std::istringstream ids(row.text("participants"));
    for (std::string id; ids >> id;) {
      const std::optional<int> unit = parse_unit_id(id);
      if (!unit) row.refuse("participants", "is not a list of unit ids");
      c.participants.push_back(*unit);
    }
  }
  // "2 by side": two-level's groups.
  if (const std::string& groups = row.text("groups"); !groups.empty()) {
    const std::size_t by = groups.find(" by ");
    std::from_chars(groups.data(), groups.data() + groups.size(), c.label.groups);
    if (by != std::string::npos) c.label.grouped_by = groups.substr(by + 4);
  }
  c.ns = Summary{row.number("median_ns"), row.number("p05_ns"), row.number("p95_ns"), kNaN, kNaN, 0};
  c.cycles = Summary{row.number("median_cycles"), row.number("p05_cycles"), row.number("p95_cycles"), kNaN, kNaN, 0};
  if (row.has("per_barrier_ns")) c.per_barrier_ns = row.number("per_barrier_ns");
  if (row.has("per_barrier_cycles")) c.per_barrier_cycles = row.number("per_barrier_cycles");
  if (row.has("ops_per_us")) c.ops_per_us = row.number("ops_per_us");
  c.values = row.whole_int("episodes", 0);
  c.timed_out = row.whole_int("timeouts", 0) > 0;
  // "not supported here: <the backend's reason>"
  constexpr std::string_view kUnsupported = "not supported here";
  if (const std::string& note = row.text("note"); note.starts_with(kUnsupported)) {
    c.unsupported = true;
    c.why = note.size() > kUnsupported.size() + 2 ? note.substr(kUnsupported.size() + 2) : std::string();
  }
  return c;
}

}  // namespace

SyncCsv parse_sync_csv(std::string_view csv, const std::string& command, const std::string& source) {
  std::vector<CsvRecord> records;
  try {
    records = read_csv_records(csv);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{} {}", source, e.what()));
  }
  if (records.empty()) throw UsageError(fmt::format("{} is empty", source));
  const std::string what_column = command == "contention" ? "op" : "implementation";
  const std::vector<std::string>& header = records.front().fields;
  if (header.front() != what_column)
    throw UsageError(fmt::format("{} is not the CSV of cumap {}: its first column is '{}', not '{}'", source,
                                 command, printable_excerpt(header.front()), what_column));
  const CsvColumns columns(source, header,
                           {"k", "set", "counter_home", "median_ns", "p05_ns", "p95_ns", "median_cycles",
                            "p05_cycles", "p95_cycles", "episodes", "timeouts", "groups", "note"});
  SyncCsv out;
  out.has_per_barrier = command != "contention" && columns.has("per_barrier_ns");
  out.across_gpus = columns.has("counter_gpu");
  for (std::size_t r = 1; r < records.size(); ++r)
    out.cases.push_back(case_of(CsvRow(columns, records[r].fields, records[r].line), what_column));
  return out;
}

SyncCsv read_sync_csv(const std::filesystem::path& csv, const std::string& command) {
  const std::string shown = printable_excerpt(csv.string(), 160);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(csv, ec))
    throw UsageError(fmt::format("{} does not exist; cumap {} writes it beside meta.json (is the output set "
                                 "complete?)",
                                 shown, command));
  return parse_sync_csv(read_checked_file(csv, kSyncCsvRead), command, shown);
}

}  // namespace cumap
