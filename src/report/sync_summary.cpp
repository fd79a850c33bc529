// summary.md, report.html's words and `cumap summary` of a barrier or
// contention run: its meta.json and CSV in a page (sync_summary.hpp).
#include "report/sync_summary.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "report/csv_records.hpp"
#include "report/json_number.hpp"
#include "report/meta_fields.hpp"
#include "report/sync_outputs.hpp"
#include "core/sync_cases.hpp"

namespace cumap {
namespace {

using Json = nlohmann::json;
using meta_fields::boolean;
using meta_fields::member;
using meta_fields::text;
using meta_fields::whole;

std::string ns_cell(double v) { return std::isfinite(v) ? fmt::format("{:.1f}", v) : "-"; }

// Reads one row of the CSV by column name, each cell checked as it is read.
class CsvRow {
 public:
  CsvRow(const std::map<std::string, std::size_t>& columns, const CsvRecord& record, const std::string& source)
      : columns_(columns), record_(record), source_(source) {}

  bool has(const std::string& column) const { return columns_.contains(column); }
  const std::string& text(const std::string& column) const { return record_.fields[columns_.at(column)]; }

  // Empty: no value (NaN).
  double number(const std::string& column) const {
    const std::string& cell = text(column);
    if (cell.empty()) return kNaN;
    double v = 0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    if (ec != std::errc() || end != cell.data() + cell.size() || !std::isfinite(v))
      throw bad(column, "is not a number");
    return v;
  }

  int integer(const std::string& column, int least) const {
    const std::string& cell = text(column);
    int v = 0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    if (cell.empty() || ec != std::errc() || end != cell.data() + cell.size() || v < least)
      throw bad(column, fmt::format("is not a whole number of at least {}", least));
    return v;
  }

 private:
  UsageError bad(const std::string& column, const std::string& why) const {
    return UsageError(fmt::format("{} line {}, column {}: '{}' {}", source_, record_.line, column,
                                  printable_excerpt(text(column)), why));
  }

  const std::map<std::string, std::size_t>& columns_;
  const CsvRecord& record_;
  const std::string& source_;
};

SyncCaseResult case_of(const CsvRow& row, const std::string& what_column) {
  SyncCaseResult c;
  c.what = row.text(what_column);
  c.label.set = row.text("set");
  c.label.k = row.integer("k", 1);
  c.label.counter_home = row.text("counter_home");
  if (row.has("counter_gpu")) c.label.counter_gpu = row.text("counter_gpu");
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
  c.values = row.integer("episodes", 0);
  c.timed_out = row.integer("timeouts", 0) > 0;
  // "not supported here: <the backend's reason>"
  constexpr std::string_view kUnsupported = "not supported here";
  if (const std::string& note = row.text("note"); note.starts_with(kUnsupported)) {
    c.unsupported = true;
    c.why = note.size() > kUnsupported.size() + 2 ? note.substr(kUnsupported.size() + 2) : std::string();
  }
  return c;
}

void read_cases(SyncSummary& s, std::string_view csv, const std::string& source) {
  std::vector<CsvRecord> records;
  try {
    records = read_csv_records(csv);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{} {}", source, e.what()));
  }
  if (records.empty()) throw UsageError(fmt::format("{} is empty", source));
  const std::string what_column = s.contention() ? "op" : "implementation";
  s.csv_header = records.front().fields;
  if (s.csv_header.front() != what_column)
    throw UsageError(fmt::format("{} is not the CSV of cumap {}: its first column is '{}', not '{}'", source,
                                 s.command, printable_excerpt(s.csv_header.front()), what_column));
  std::map<std::string, std::size_t> columns;
  for (std::size_t i = 0; i < s.csv_header.size(); ++i) columns.emplace(s.csv_header[i], i);
  for (const char* needed : {"k", "set", "counter_home", "median_ns", "p05_ns", "p95_ns", "median_cycles",
                             "p05_cycles", "p95_cycles", "episodes", "timeouts", "groups", "note"})
    if (!columns.contains(needed)) throw UsageError(fmt::format("{} has no column '{}'", source, needed));
  s.has_per_barrier = !s.contention() && columns.contains("per_barrier_ns");
  s.across_gpus = columns.contains("counter_gpu");
  for (std::size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& record = records[r];
    if (record.fields.size() != s.csv_header.size())
      throw UsageError(fmt::format("{} line {}: {} fields where the header has {}", source, record.line,
                                   record.fields.size(), s.csv_header.size()));
    s.cases.push_back({case_of(CsvRow(columns, record, source), what_column), record.fields});
  }
}

// Per set, its largest k: every unit of the set.
std::map<std::string, int> largest_k(const SyncSummary& s) {
  std::map<std::string, int> most;
  for (const SyncSummary::Case& c : s.cases)
    most[c.result.label.set] = std::max(most[c.result.label.set], c.result.label.k);
  return most;
}

// Where two-level was measured at a set's largest k: against the flag
// barrier of the same set, k and home (the one-level barrier it replaces),
// faster or slower.
std::vector<std::string> two_level_verdicts(const SyncSummary& s) {
  const std::map<std::string, int> most = largest_k(s);
  std::vector<std::string> lines;
  for (const SyncSummary::Case& two_case : s.cases) {
    const SyncCaseResult& two = two_case.result;
    if (two.what != "two-level" || !two.measured() || two.label.k != most.at(two.label.set)) continue;
    for (const SyncSummary::Case& flag_case : s.cases) {
      const SyncCaseResult& flag = flag_case.result;
      if (flag.what != "flag" || !flag.measured() || flag.label.set != two.label.set || flag.label.k != two.label.k ||
          flag.label.counter_home != two.label.counter_home)
        continue;
      const double change = two.headline_ns() / flag.headline_ns() - 1;
      lines.push_back(fmt::format("{} k={} ({} leaders' counter, {} groups by {}): {} {:.1f} ns against "
                                  "{} {:.1f} ns: {} by {:.0f} %",
                                  two.label.set, two.label.k, two.label.counter_home, two.label.groups,
                                  two.label.grouped_by, sync_construction(two), two.headline_ns(),
                                  sync_construction(flag), flag.headline_ns(), change < 0 ? "wins" : "loses",
                                  100 * std::abs(change)));
    }
  }
  return lines;
}

// Across GPUs, per set at its largest k: every construction (implementation
// or operation, and where its counter is) at its cheapest home, cheapest
// first, each against the cheapest.
std::vector<std::string> across_gpus_verdicts(const SyncSummary& s) {
  if (!s.across_gpus) return {};
  const std::map<std::string, int> most = largest_k(s);
  std::vector<std::string> sets;  // in the order measured
  for (const SyncSummary::Case& c : s.cases)
    if (std::find(sets.begin(), sets.end(), c.result.label.set) == sets.end()) sets.push_back(c.result.label.set);
  std::vector<std::string> lines;
  for (const std::string& set : sets) {
    std::vector<std::string> order;  // constructions as measured
    std::map<std::string, const SyncCaseResult*> cheapest;
    for (const SyncSummary::Case& at : s.cases) {
      const SyncCaseResult& c = at.result;
      if (c.label.set != set || c.label.k != most.at(set) || !c.measured()) continue;
      const std::string name = sync_construction(c);
      if (!cheapest.contains(name)) order.push_back(name);
      const SyncCaseResult*& best = cheapest[name];
      if (!best || c.headline_ns() < best->headline_ns()) best = &c;
    }
    if (order.size() < 2) continue;
    std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
      return cheapest.at(a)->headline_ns() < cheapest.at(b)->headline_ns();
    });
    const SyncCaseResult& first = *cheapest.at(order.front());
    std::string line = fmt::format("{} k={}: {} is cheapest, {:.1f} ns {} ({})", set, most.at(set), order.front(),
                                   first.headline_ns(), s.contention() ? "per operation" : "per barrier",
                                   first.label.counter_home);
    for (std::size_t i = 1; i < order.size(); ++i) {
      const SyncCaseResult& c = *cheapest.at(order[i]);
      line += fmt::format("{} {} {:.1f} ns ({}, +{:.0f} %)", i == 1 ? "; then" : ",", order[i], c.headline_ns(),
                          c.label.counter_home, 100 * (c.headline_ns() / first.headline_ns() - 1));
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string note_of(const SyncCaseResult& c) {
  return c.unsupported ? "not supported here" : c.timed_out ? "timed out" : "";
}

}  // namespace

std::vector<const SyncSummary::Case*> SyncSummary::at_every_unit() const {
  const std::map<std::string, int> most = largest_k(*this);
  std::vector<const Case*> out;
  for (const Case& c : cases)
    if (c.result.label.k == most.at(c.result.label.set)) out.push_back(&c);
  return out;
}

bool is_sync_meta(const Json& meta) {
  const std::string command = text(meta, "command");
  return text(meta, "tool") == "cumap" && (command == "barrier" || command == "contention");
}

SyncSummary sync_summary(const Json& meta, std::string_view csv, const std::string& csv_source) {
  if (!is_sync_meta(meta))
    throw UsageError("meta.json is not that of cumap barrier or cumap contention: it does not say \"tool\": "
                     "\"cumap\" with \"command\": \"barrier\" or \"contention\"");
  SyncSummary s;
  s.command = text(meta, "command");
  s.tool_version = text(meta, "tool_version");
  s.timestamp_utc = text(meta, "timestamp_utc");
  s.host = text(meta, "host");
  s.command_line = text(meta, "command_line");
  s.complete = boolean(meta, "complete", false);
  s.interrupted = boolean(meta, "interrupted", false);
  s.planned_cases = whole<std::size_t>(member(meta, "cases"), "planned", 0);

  const Json& device = member(meta, "device");
  s.device_name = text(device, "name");
  s.backend = text(meta, "backend");
  s.unit_name = text(device, "unit_name");
  if (s.unit_name.empty()) s.unit_name = "unit";
  s.driver_version = text(device, "driver_version");
  s.runtime_version = text(device, "runtime_version");
  const Json& order = member(meta, "display_order");
  s.units = order.is_array() ? order.size() : member(meta, "units").size();
  s.class_count = whole<int>(member(meta, "homes"), "class_count", 1);

  const Json& settings = member(meta, "settings");
  s.probe = text(settings, "probe");
  s.episodes = whole<int>(settings, "episodes", 0);
  s.warmup = whole<int>(settings, "warmup", 0);
  s.launches = whole<int>(settings, "launches", 1);  // a set from before launches were counted had one
  s.ops_per_batch = whole<int>(settings, "ops_per_batch", 0);
  s.has_cycles = whole<double>(member(meta, "clock"), "clock_hz", 0.0) > 0;
  if (member(meta, "left_out").is_array())
    for (const Json& note : meta["left_out"])
      if (note.is_string()) s.left_out.push_back(note.get<std::string>());

  read_cases(s, csv, csv_source);
  s.two_level = two_level_verdicts(s);
  s.across = across_gpus_verdicts(s);
  return s;
}

SyncSummary read_sync_summary(const OutputMeta& read) {
  namespace fs = std::filesystem;
  const std::string command = text(read.meta, "command");
  const fs::path csv = read.file.parent_path() / (command + ".csv");
  const std::string shown = printable_excerpt(csv.string(), 160);
  std::error_code ec;
  if (!fs::is_regular_file(csv, ec))
    throw UsageError(fmt::format("summary: {} does not exist; cumap {} writes it beside meta.json (is the output "
                                 "set complete?)",
                                 shown, command));
  std::ifstream in(csv, std::ios::binary);
  if (!in) throw UsageError(fmt::format("summary: {} cannot be read", shown));
  std::ostringstream content;
  content << in.rdbuf();
  try {
    return sync_summary(read.meta, content.str(), shown);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("summary: {}", e.what()));
  }
}

SyncTable sync_table(const SyncSummary& s) {
  const bool contention = s.contention();
  SyncTable t;
  const auto column = [&t](std::string title, bool numeric) {
    t.header.push_back(std::move(title));
    t.numeric.push_back(numeric);
  };
  column("set", false);
  column("k", true);
  column(contention ? "op" : "implementation", false);
  column("counter home", false);
  if (s.across_gpus) column("counter GPU", false);
  if (s.has_per_barrier) column("ns per barrier", true);
  column("median ns", true);
  column("p05 ns", true);
  column("p95 ns", true);
  if (s.has_cycles)
    column(contention ? "median cycles" : s.has_per_barrier ? "cycles per barrier" : "median cycles", true);
  if (contention) column("ops/us", true);
  column("note", false);
  for (const SyncSummary::Case* at : s.at_every_unit()) {
    const SyncCaseResult& c = at->result;
    std::vector<std::string> row{c.label.set, std::to_string(c.label.k), c.what, c.label.counter_home};
    if (s.across_gpus) row.push_back(c.label.counter_gpu);
    if (s.has_per_barrier) row.push_back(ns_cell(c.per_barrier_ns));
    for (double v : {c.ns.median, c.ns.p05, c.ns.p95}) row.push_back(ns_cell(v));
    if (s.has_cycles) row.push_back(ns_cell(c.headline_cycles()));
    if (contention) row.push_back(ns_cell(c.ops_per_us));
    row.push_back(note_of(c));
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string sync_measured_line(const SyncSummary& s) {
  return fmt::format(
      "{} backend, {} {}s measured, {} home class(es); probe {}; each case in {} launch(es) on counter lines of its "
      "own, each launch {} {} after {} untimed.",
      s.backend, s.units, s.unit_name, s.class_count, s.probe, s.launches, s.episodes,
      s.contention() ? "batches per participant" : "episodes", s.warmup);
}

std::string sync_completeness(const SyncSummary& s) {
  return s.complete ? fmt::format("Complete: {} case(s).", s.cases.size())
                    : fmt::format("Incomplete: {} of {} case(s) measured{}.", s.cases.size(), s.planned_cases,
                                  s.interrupted ? " (interrupted)" : "");
}

std::string sync_table_note(const SyncSummary& s) {
  std::string note =
      s.contention() ? "Median, p05 and p95 over every participant's timed batches, per operation"
      : s.has_per_barrier
          ? std::string("Ns per barrier: what one barrier costs in a loop of them, the mean over the launches "
                        "(each on counter lines of its own) of each launch's mean over its episodes. Median, p05 "
                        "and p95: over single episodes of every launch, leave to leave as the first participant saw "
                        "it; episodes trade time with their neighbours, so their median is a mode rather than a "
                        "cost")
          : "Median over episodes, leave to leave as the first participant saw it";
  return note + "; every case is in " + s.csv_name() + ", drawn in " + s.plot_name() + ".";
}

std::optional<std::string> sync_backend_caveat(const SyncSummary& s) {
  if (s.backend != "hip") return std::nullopt;
  return "Measured by the hip backend, which is compiled and tested against a simulated runtime only and has not "
         "been run on an AMD GPU by its authors: check these numbers against what you expect of the card, and "
         "please report what you see.";
}

std::string sync_summary_markdown(const SyncSummary& s) {
  std::string md = fmt::format("# cumap {}: {}\n\n", s.command, s.device_name);
  md += sync_measured_line(s) + " ";
  md += s.complete ? sync_completeness(s) : "**" + sync_completeness(s) + "**";
  md += "\n\n";
  if (const auto caveat = sync_backend_caveat(s)) md += "**" + *caveat + "**\n\n";
  md += fmt::format("Command: `{}`\n\n", s.command_line);

  md += "## At k = every unit of each set\n\n";
  const SyncTable t = sync_table(s);
  std::string header = "|", rule = "|";
  for (std::size_t i = 0; i < t.header.size(); ++i) {
    header += " " + t.header[i] + " |";
    rule += t.numeric[i] ? " ---: |" : " --- |";
  }
  md += header + "\n" + rule + "\n";
  for (const std::vector<std::string>& row : t.rows) {
    std::string line = "|";
    for (const std::string& c : row) line += " " + c + " |";
    md += line + "\n";
  }
  md += "\n" + sync_table_note(s) + "\n";
  if (!s.across.empty()) {
    md += "\n## Across GPUs\n\n";
    for (const std::string& v : s.across) md += "- " + v + "\n";
  }
  if (!s.two_level.empty()) {
    md += "\n## Two-level against the flag barrier it replaces\n\n";
    for (const std::string& v : s.two_level) md += "- " + v + "\n";
  }
  if (!s.left_out.empty()) {
    md += "\n## Left out\n\n";
    for (const std::string& n : s.left_out) md += "- " + n + "\n";
  }
  return md;
}

std::string sync_summary_csv(const SyncSummary& s) {
  const auto line = [](const std::vector<std::string>& fields) {
    std::string out;
    for (const std::string& field : fields) {
      if (!out.empty()) out += ',';
      out += sync_csv_cell(field);
    }
    return out + "\n";
  };
  std::string out = line(s.csv_header);
  for (const SyncSummary::Case* c : s.at_every_unit()) out += line(c->csv_fields);
  return out;
}

Json to_json(const SyncSummary& s) {
  Json rows = Json::array();
  for (const SyncSummary::Case* at : s.at_every_unit()) {
    const SyncCaseResult& c = at->result;
    Json row = {{"set", c.label.set},
                {"k", c.label.k},
                {s.contention() ? "op" : "implementation", c.what},
                {"counter_home", c.label.counter_home},
                {"headline_ns", number_or_null(c.headline_ns())}};
    if (s.across_gpus) row["counter_gpu"] = c.label.counter_gpu;
    if (s.has_per_barrier) row["per_barrier_ns"] = number_or_null(c.per_barrier_ns);
    row["median_ns"] = number_or_null(c.ns.median);
    row["p05_ns"] = number_or_null(c.ns.p05);
    row["p95_ns"] = number_or_null(c.ns.p95);
    row["headline_cycles"] = number_or_null(c.headline_cycles());
    if (s.contention()) row["ops_per_us"] = number_or_null(c.ops_per_us);
    row["measured"] = c.measured();
    row["note"] = c.unsupported && !c.why.empty() ? "not supported here: " + c.why : note_of(c);
    rows.push_back(std::move(row));
  }
  Json settings = {{"probe", s.probe}, {"episodes", s.episodes}, {"warmup", s.warmup}, {"launches", s.launches}};
  if (s.contention()) settings["ops_per_batch"] = s.ops_per_batch;
  Json out = {{"command", s.command},
          {"tool_version", s.tool_version},
          {"timestamp_utc", s.timestamp_utc},
          {"host", s.host},
          {"command_line", s.command_line},
          {"device",
           {{"name", s.device_name},
            {"backend", s.backend},
            {"unit_name", s.unit_name},
            {"driver_version", s.driver_version},
            {"runtime_version", s.runtime_version}}},
          {"units", s.units},
          {"class_count", s.class_count},
          {"settings", settings},
          {"complete", s.complete},
          {"interrupted", s.interrupted},
          {"cases", {{"planned", s.planned_cases}, {"measured", s.cases.size()}, {"file", s.csv_name()}}},
          {"headline", s.contention() ? "median_ns" : s.has_per_barrier ? "per_barrier_ns" : "median_ns"},
          {"rows", rows},
          {"two_level", s.two_level},
          {"left_out", s.left_out}};
  if (s.across_gpus) out["across_gpus"] = s.across;
  return out;
}

}  // namespace cumap
