// The files of `cumap barrier` and `cumap contention` from results built by
// hand: the CSVs' columns and rows, meta.json's keys, summary.md's table at
// k = every unit, the plot, and the whole set through an OutputSet.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "png_reader.hpp"
#include "publish/output_set.hpp"
#include "core/sync_summary.hpp"
#include "report/meta_json.hpp"
#include "report/sync_csv.hpp"
#include "report/sync_outputs.hpp"
#include "report/sync_png.hpp"
#include "report/sync_summary_md.hpp"
#include "sync_result_fixture.hpp"
#include "temp_dir.hpp"
#include "core/sync_cases.hpp"

namespace cumap {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

TEST(SyncCsv, BarrierRowsInLongFormWithEveryColumnNamed) {
  const SyncResult r = test::sync_result(false);
  EXPECT_EQ(sync_csv_name(r), "barrier.csv");
  const std::vector<std::string> lines = lines_of(sync_csv(r));
  ASSERT_EQ(lines.size(), 1 + r.cases.size());
  const std::vector<std::string> header = cells(lines[0]);
  EXPECT_EQ(header, (std::vector<std::string>{"implementation", "k", "set", "counter_home", "counter_class",
                                              "counter_offsets", "launches", "per_barrier_ns", "per_barrier_cycles",
                                              "median_ns", "p05_ns", "p95_ns", "median_cycles", "p05_cycles",
                                              "p95_cycles", "episodes", "timeouts", "groups", "participants",
                                              "note"}));
  for (std::size_t i = 1; i < lines.size(); ++i) EXPECT_EQ(cells(lines[i]).size(), header.size()) << lines[i];
  const std::vector<std::string> first = cells(lines[1]);
  EXPECT_EQ(first[0], "counter");
  EXPECT_EQ(first[1], "2");
  EXPECT_EQ(first[2], "one-side");
  EXPECT_EQ(first[3], "near");
  EXPECT_EQ(first[5], "0 256 512") << "each launch's counter line";
  EXPECT_EQ(first[6], "3") << "launches";
  EXPECT_EQ(first[7], "567.000") << "per barrier";
  EXPECT_EQ(first[9], "540.000") << "the episodes' median";
  EXPECT_EQ(first[18], "0 1");
  // The case that timed out: no values, timeouts 1, a note.
  const std::vector<std::string> late = cells(lines[2]);
  EXPECT_EQ(late[7], "");
  EXPECT_EQ(late[9], "");
  EXPECT_EQ(late[16], "1");
  EXPECT_EQ(late[19], "timed out");
  EXPECT_NE(sync_csv(r).find("not supported here: grid.sync() needs every SM"), std::string::npos);
  EXPECT_NE(sync_csv(r).find(",2 by side,"), std::string::npos) << "two-level's groups";
}

TEST(SyncCsv, ContentionAddsItsBatchAndRateColumns) {
  const SyncResult r = test::sync_result(true);
  EXPECT_EQ(sync_csv_name(r), "contention.csv");
  const std::vector<std::string> lines = lines_of(sync_csv(r));
  const std::vector<std::string> header = cells(lines[0]);
  EXPECT_EQ(header.front(), "op");
  const auto at = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  ASSERT_LT(at("ops_per_us"), header.size());
  ASSERT_LT(at("ops_per_batch"), header.size());
  const std::vector<std::string> first = cells(lines[1]);
  EXPECT_EQ(first[at("ops_per_batch")], "64");
  EXPECT_GT(std::stod(first[at("ops_per_us")]), 0);
  EXPECT_EQ(first[at("k")], "1");
}

TEST(SyncMeta, SaysWhatRanHowAndWhetherItIsComplete) {
  SyncResult r = test::sync_result(false);
  nlohmann::json meta = make_sync_meta(r, sync_summary(r));
  for (const char* key : {"tool", "command", "command_line", "device", "options", "complete", "clock", "homes",
                          "cases", "left_out", "settings", "units"})
    EXPECT_TRUE(meta.contains(key)) << key;
  EXPECT_EQ(meta.at("tool"), "cumap");
  EXPECT_EQ(meta.at("command"), "barrier");
  EXPECT_TRUE(meta.at("complete").get<bool>());
  EXPECT_EQ(meta.at("clock").at("clock_hz"), 1.98e9);
  EXPECT_EQ(meta.at("cases").at("timed_out"), 1);
  EXPECT_EQ(meta.at("cases").at("unsupported"), 1);
  EXPECT_EQ(meta.at("homes").at("class_count"), 2);
  r.interrupted = true;
  r.cases.pop_back();
  meta = make_sync_meta(r, sync_summary(r));
  EXPECT_FALSE(meta.at("complete").get<bool>());
  EXPECT_EQ(meta.at("cases").at("planned").get<std::size_t>(), r.cases.size() + 1);
}

TEST(SyncSummary, TablesTheLargestKOfEachSetAndJudgesTwoLevel) {
  const std::string md = sync_summary_markdown(sync_summary(test::sync_result(false)));
  EXPECT_NE(md.find("# cumap barrier: NVIDIA H100 80GB HBM3"), std::string::npos);
  EXPECT_NE(md.find("## At k = every unit of each set"), std::string::npos);
  EXPECT_NE(md.find("| alternating | 8 | flag | near |"), std::string::npos) << md;
  EXPECT_NE(md.find("| one-side | 4 | counter | near |"), std::string::npos) << md;
  EXPECT_EQ(md.find("| alternating | 2 |"), std::string::npos) << "only the largest k";
  EXPECT_NE(md.find("| one-side | 4 | platform | own | - | - | - | - | - | not supported here |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| ns per barrier | median ns |"), std::string::npos) << "per barrier first";
  EXPECT_NE(md.find("| cycles per barrier |"), std::string::npos) << "the fixture's backend counts cycles";
  EXPECT_NE(md.find("two-level"), std::string::npos);
  EXPECT_NE(md.find("alternating k=8 (near leaders' counter, 2 groups by side): two-level 3339.0 ns against flag "
                    "2331.0 ns: loses by 43 %"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("one-side k=2 ("), std::string::npos) << "verdicts at the largest k only";
  EXPECT_NE(md.find("## Left out"), std::string::npos);
  EXPECT_NE(md.find("Complete: "), std::string::npos);
}

TEST(SyncCases, TheCheapestMeasuredCaseAtTheLargestK) {
  SyncResult r = test::sync_result(false);
  const CheapestCase cheapest = cheapest_at_largest_k(r.cases);
  EXPECT_EQ(cheapest.k, 8);
  ASSERT_NE(cheapest.result, nullptr);
  EXPECT_EQ(cheapest.result->what, "counter");
  EXPECT_EQ(cheapest.result->label.counter_home, "near");
  EXPECT_DOUBLE_EQ(cheapest.result->headline_ns(), (300 + 120 * 8) * 1.05) << "per barrier, not the episodes' median";
  // None measured at the largest k: no case, the k still said.
  for (SyncCaseResult& c : r.cases)
    if (c.label.k == 8) c.timed_out = true;
  EXPECT_EQ(cheapest_at_largest_k(r.cases).k, 8);
  EXPECT_EQ(cheapest_at_largest_k(r.cases).result, nullptr);
}

TEST(SyncPlot, APanelPerSetALinePerImplementationAndHome) {
  const SyncResult r = test::sync_result(false);
  const std::vector<PlotPanel> panels = sync_plot_panels(r);
  ASSERT_EQ(panels.size(), 2u);
  EXPECT_EQ(panels[0].title, "one-side (up to 4 SMs)");
  std::set<std::string> labels;
  for (const PlotSeries& s : panels[1].series) labels.insert(s.label);
  EXPECT_EQ(labels, (std::set<std::string>{"counter, near", "counter, far", "flag, near", "flag, far",
                                           "two-level, near", "two-level, far", "platform, own"}));
  const LinePlotStyle style = sync_plot_style(r);
  EXPECT_TRUE(style.log_x);
  EXPECT_EQ(style.notes.size(), 2u) << "the timed-out and the unsupported case";
}

TEST(SyncOutputs, TheWholeSetIsWrittenWithANonBlankPlot) {
  test::TempDir dir;
  for (bool contention : {false, true}) {
    const SyncResult r = test::sync_result(contention);
    const auto out_dir = dir / (contention ? "C" : "B");
    {
      OutputSet out(out_dir);
      write_sync_outputs(r, out);
      out.publish();
    }
    const std::string name = contention ? "contention" : "barrier";
    for (const std::string& f : {name + ".csv", name + ".png", std::string("summary.md"), std::string("report.html"),
                                 std::string("meta.json"), std::string("homes.csv"), std::string("homes.json")})
      EXPECT_TRUE(std::filesystem::is_regular_file(out_dir / f)) << f;
    EXPECT_TRUE(is_cumap_output_set(out_dir)) << "a later run may replace it";
    const Image png = test::read_png(out_dir / (name + ".png"));
    std::set<std::tuple<int, int, int>> colours;
    for (int y = 0; y < png.height; y += 3)
      for (int x = 0; x < png.width; x += 3) {
        const Rgb p = png.pixel(x, y);
        colours.insert({p.r, p.g, p.b});
      }
    EXPECT_GT(colours.size(), 20u) << "lines, markers, text: not a blank picture";
  }
}

}  // namespace
}  // namespace cumap
