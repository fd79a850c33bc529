// A barrier or contention run's summary, made from the result and read back
// from its meta.json as `cumap summary DIR` reads it: the numbers of the
// result exactly, the rows at k = every unit, a CSV of an older cumap
// without the per-barrier columns, a note with commas and quotes, and CSVs
// that are not the command's refused saying where.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/error.hpp"
#include "core/sync_summary.hpp"
#include "report/meta_json.hpp"
#include "report/read/csv_records.hpp"
#include "report/read/sync_csv.hpp"
#include "report/summary_json.hpp"
#include "report/sync_csv.hpp"
#include "report/sync_summary_formats.hpp"
#include "report/sync_summary_md.hpp"
#include "sync_result_fixture.hpp"
#include "core/stats.hpp"

namespace cumap {
namespace sync_summary_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

// As `cumap summary DIR` reads it: from the meta.json the run writes.
SyncSummary summary_of(const SyncResult& r) {
  return sync_summary_from_json(nlohmann::json::parse(make_sync_meta(r, sync_summary(r)).dump()));
}
// An older cumap's set: its meta.json, and the cases of its CSV.
SyncSummary summary_of(const SyncResult& r, const std::string& csv, const std::string& source) {
  return sync_summary_from_json(make_sync_meta(r, sync_summary(r)), parse_sync_csv(csv, "barrier", source));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// `csv` without the columns named, as a cumap before them wrote it.
std::string without_columns(const std::string& csv, const std::vector<std::string>& names) {
  std::string out;
  std::vector<bool> drop;
  for (const CsvRecord& record : read_csv_records(csv)) {
    if (drop.empty())
      for (const std::string& f : record.fields)
        drop.push_back(std::find(names.begin(), names.end(), f) != names.end());
    std::string line;
    for (std::size_t i = 0; i < record.fields.size(); ++i)
      if (!drop[i]) line += (line.empty() ? "" : ",") + record.fields[i];
    out += line + "\n";
  }
  return out;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no UsageError";
}

TEST(SyncSummaryFromFiles, ReadsTheResultsNumbersBack) {
  const SyncResult r = test::sync_result(false);
  const SyncSummary s = summary_of(r);
  EXPECT_EQ(s, sync_summary(r)) << "what the run summarized, read back exactly";
  EXPECT_EQ(s.command, "barrier");
  EXPECT_EQ(s.run.device_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(s.run.backend, "cuda");
  EXPECT_EQ(s.run.units.size(), 8u);
  EXPECT_EQ(s.run.class_count, 2);
  EXPECT_TRUE(s.complete);
  EXPECT_TRUE(s.has_cycles());
  EXPECT_TRUE(s.has_per_barrier);
  EXPECT_EQ(s.measured_cases, r.cases.size());
  const std::vector<SyncCaseResult> every_unit = cases_at_every_unit(r.cases);
  ASSERT_EQ(s.at_every_unit.size(), every_unit.size());
  for (std::size_t i = 0; i < every_unit.size(); ++i) {
    const SyncCaseResult& want = every_unit[i];
    const SyncCaseResult& got = s.at_every_unit[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(got.what, want.what);
    EXPECT_EQ(got.label.set, want.label.set);
    EXPECT_EQ(got.label.k, want.label.k);
    EXPECT_EQ(got.measured(), want.measured());
    EXPECT_EQ(got.unsupported, want.unsupported);
    EXPECT_EQ(got.why, want.why);
    if (want.measured()) EXPECT_EQ(got.headline_ns(), want.headline_ns());
    else EXPECT_TRUE(std::isnan(got.headline_ns()));
  }
  // Each set's largest k only: one-side up to 4, alternating up to 8.
  const std::vector<SyncCaseResult>& table = s.at_every_unit;
  ASSERT_FALSE(table.empty());
  for (const SyncCaseResult& c : table) EXPECT_EQ(c.label.k, c.label.set == "one-side" ? 4 : 8) << c.label.set;
  EXPECT_EQ(table.size(), 7u + 7u) << "3 implementations x near, far, and the platform's, per set";
  EXPECT_EQ(s.left_out, r.notes);
  EXPECT_EQ(s.two_level.size(), 4u) << "two-level against flag, near and far, in both sets";
}

TEST(SyncSummaryFromFiles, TheCsvIsTheFilesRowsAtEveryUnitAndTheJsonTheTable) {
  const SyncResult r = test::sync_result(true);
  const SyncSummary s = summary_of(r);
  const std::vector<std::string> file = lines_of(sync_csv(r)), summary = lines_of(sync_summary_csv(s));
  ASSERT_EQ(summary.size(), 1 + s.at_every_unit.size());
  EXPECT_EQ(summary[0], file[0]) << "the file's own columns";
  for (std::size_t i = 1; i < summary.size(); ++i) {
    EXPECT_NE(std::find(file.begin(), file.end(), summary[i]), file.end()) << "a row of the file as it is: "
                                                                             << summary[i];
    EXPECT_EQ(summary[i].find(",2,"), std::string::npos) << "k = 2 is no set's largest: " << summary[i];
  }
  const nlohmann::json j = sync_summary_fields_json(s);
  EXPECT_EQ(j.at("command"), "contention");
  EXPECT_TRUE(j.at("complete").get<bool>());
  EXPECT_EQ(j.at("device").at("name"), "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(j.at("rows").size(), summary.size() - 1);
  const nlohmann::json& first = j.at("rows").at(0);
  EXPECT_EQ(first.at("op"), "cas");
  EXPECT_EQ(first.at("k"), 4);
  EXPECT_GT(first.at("ops_per_us").get<double>(), 0);
  EXPECT_FALSE(first.contains("per_barrier_ns")) << "contention has no barriers";
  // A case at the table's k that timed out: in the table without numbers.
  SyncResult late = r;
  for (SyncCaseResult& c : late.cases)
    if (c.label.set == "alternating" && c.label.k == 8 && c.what == "add" && c.label.counter_home == "far") {
      c.timed_out = true;
      c.values = 0;
      c.ns = c.cycles = summarize({});
    }
  bool seen = false;
  const nlohmann::json late_json = sync_summary_fields_json(summary_of(late));
  for (const nlohmann::json& row : late_json.at("rows"))
    if (row.at("set") == "alternating" && row.at("op") == "add" && row.at("counter_home") == "far") {
      seen = true;
      EXPECT_TRUE(row.at("median_ns").is_null()) << row;
      EXPECT_FALSE(row.at("measured").get<bool>());
      EXPECT_EQ(row.at("note"), "timed out");
    }
  EXPECT_TRUE(seen) << late_json.dump(1);
}

TEST(SyncSummaryFromFiles, AnOlderCsvWithoutPerBarrierHasTheMedianAsItsHeadline) {
  const SyncResult r = test::sync_result(false);
  const std::string csv = without_columns(sync_csv(r), {"per_barrier_ns", "per_barrier_cycles"});
  ASSERT_EQ(csv.find("per_barrier"), std::string::npos);
  const SyncSummary s = summary_of(r, csv, "old.csv");
  EXPECT_FALSE(s.has_per_barrier);
  const std::string md = sync_summary_markdown(s);
  EXPECT_EQ(md.find("ns per barrier"), std::string::npos) << md;
  EXPECT_NE(md.find("| median ns | p05 ns | p95 ns | median cycles | note |"), std::string::npos) << md;
  // alternating k=8: flag near 300 + 120*8*2 = 2220, two-level 3180 (the episodes' medians).
  EXPECT_NE(md.find("two-level 3180.0 ns against flag 2220.0 ns: loses by 43 %"), std::string::npos) << md;
}

TEST(SyncSummaryFromFiles, ANoteWithCommasAndQuotesReadsBackWhole) {
  SyncResult r = test::sync_result(false);
  SyncCaseResult& platform = r.cases.back();
  platform.unsupported = true;
  platform.why = "the runtime says \"no\", twice";
  platform.values = 0;
  platform.ns = platform.cycles = summarize({});
  platform.per_barrier_ns = platform.per_barrier_cycles = kNaN;
  const SyncSummary s = summary_of(r);
  EXPECT_EQ(s.at_every_unit.back().why, "the runtime says \"no\", twice");
  EXPECT_NE(sync_summary_csv(s).find("\"not supported here: the runtime says \"\"no\"\", twice\""), std::string::npos)
      << sync_summary_csv(s);
  EXPECT_EQ(sync_summary_fields_json(s).at("rows").back().at("note"),
            "not supported here: the runtime says \"no\", twice");
}

TEST(SyncSummaryFromFiles, ACsvThatIsNotTheCommandsIsRefusedSayingWhere) {
  const SyncResult barrier = test::sync_result(false);
  const nlohmann::json meta = make_sync_meta(barrier, sync_summary(barrier));
  const std::string csv = sync_csv(barrier);
  const auto refused = [&](const std::string& text) {
    return message_of([&] { sync_summary_from_json(meta, parse_sync_csv(text, "barrier", "B/barrier.csv")); });
  };
  EXPECT_NE(refused("").find("B/barrier.csv is empty"), std::string::npos);
  EXPECT_NE(refused(sync_csv(test::sync_result(true))).find("first column is 'op'"), std::string::npos);
  EXPECT_NE(refused(without_columns(csv, {"median_ns"})).find("no column 'median_ns'"), std::string::npos);
  std::string short_row = csv.substr(0, csv.find('\n') + 1) + "counter,2,one-side\n";
  EXPECT_NE(refused(short_row).find("line 2: 3 fields where the header has 20"), std::string::npos)
      << refused(short_row);
  std::string garbled = csv;
  garbled.replace(garbled.find(",567.000,"), 9, ",lots,");
  EXPECT_NE(refused(garbled).find("line 2, column per_barrier_ns: 'lots' is not a number"), std::string::npos)
      << refused(garbled);
  const nlohmann::json a_map = {{"tool", "cumap"}, {"maps", nlohmann::json::array()}};
  EXPECT_NE(message_of([&] { sync_summary_from_json(a_map, parse_sync_csv(csv, "barrier", "x")); }).find("command"),
            std::string::npos);
}

}  // namespace
}  // namespace cumap
