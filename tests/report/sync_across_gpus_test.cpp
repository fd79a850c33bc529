// The files of `cumap barrier` across two GPUs: the counter's GPU in the
// CSV, the table, the plot's series and the page, read back as `cumap
// summary` reads it, and the sentences saying which construction wins; a
// run of one GPU names no GPU anywhere.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "core/sync_summary.hpp"
#include "report/sync_csv.hpp"
#include "report/sync_png.hpp"
#include "report/sync_report_html.hpp"
#include "report/sync_summary_formats.hpp"
#include "report/sync_summary_md.hpp"
#include "sync_result_fixture.hpp"

namespace cumap {
namespace {

// The fixture's barrier run as if over two GPUs: a second GPU's homes,
// every counter and flag case on g0 and again on g1 (50 ns dearer there),
// two-level by GPU, the platform's barrier not supported across.
SyncResult across_two_gpus() {
  SyncResult one = test::sync_result(false);
  SyncResult r = one;
  HomesResult second = one.discovery.homes.front();
  second.device = 1;
  for (int& u : second.unit_ids) u += kDeviceUnitStride;
  r.discovery.homes.push_back(second);
  r.cases.clear();
  for (SyncCaseResult c : one.cases) {
    for (std::size_t i = 1; i < c.participants.size(); i += 2) c.participants[i] += kDeviceUnitStride;
    if (c.what == "counter" || c.what == "flag") {
      c.label.counter_gpu = "g0";
      r.cases.push_back(c);
      c.label.counter_gpu = "g1";
      c.per_barrier_ns += 50;
      r.cases.push_back(c);
      continue;
    }
    if (c.what == "two-level") {
      c.label.counter_gpu = "each";
      c.label.grouped_by = "gpu";
    }
    if (c.what == "platform") {
      c.unsupported = true;
      c.why = "grid.sync() synchronizes one GPU's grid";
      c.values = 0;
    }
    r.cases.push_back(c);
  }
  r.planned_cases = r.cases.size();
  return r;
}

TEST(SyncAcrossGpus, TheCsvNamesTheCounterGpuAndParticipantsAsTheMapDoes) {
  const SyncResult r = across_two_gpus();
  ASSERT_TRUE(sync_spans_gpus(r));
  const std::string csv = sync_csv(r);
  EXPECT_EQ(csv.rfind("implementation,k,set,counter_home,counter_gpu,counter_class,counter_offsets,", 0), 0u)
      << csv;
  EXPECT_NE(csv.find("\ncounter,2,one-side,near,g1,0,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ntwo-level,2,one-side,near,each,0,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",2 by gpu,g0.0 g1.1,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nplatform,4,one-side,own,,"), std::string::npos) << csv;
  // One GPU: today's header, no GPU named.
  const std::string one = sync_csv(test::sync_result(false));
  EXPECT_EQ(one.rfind("implementation,k,set,counter_home,counter_class,counter_offsets,", 0), 0u);
  EXPECT_EQ(one.find("g0"), std::string::npos);
}

TEST(SyncAcrossGpus, TheSummaryReadsTheGpuBackAndSaysWhichConstructionWins) {
  const SyncResult r = across_two_gpus();
  const SyncSummary s = sync_summary(r);
  EXPECT_TRUE(s.across_gpus);
  std::set<std::string> gpus;
  for (const SyncCaseResult& c : s.at_every_unit) gpus.insert(c.label.counter_gpu);
  EXPECT_EQ(gpus, (std::set<std::string>{"g0", "g1", "each", ""}));
  // alternating k = 8: counter on g0 1323 ns, on g1 1373; flag 2331 and
  // 2381; two-level by GPU 3339 (the fixture's numbers, near).
  ASSERT_EQ(s.across.size(), 2u) << "one sentence per set";
  EXPECT_EQ(s.across[1],
            "alternating k=8: counter on g0 is cheapest, 1323.0 ns per barrier (near); then counter on g1 1373.0 ns "
            "(near, +4 %), flag on g0 2331.0 ns (near, +76 %), flag on g1 2381.0 ns (near, +80 %), two-level by GPU "
            "3339.0 ns (near, +152 %)");
  const std::string md = sync_summary_markdown(s);
  EXPECT_NE(md.find("| set | k | implementation | counter home | counter GPU |"), std::string::npos) << md;
  EXPECT_NE(md.find("## Across GPUs\n\n- one-side k=4: counter on g0 is cheapest"), std::string::npos) << md;
  // Two-level by GPU against the flag barrier on each GPU, each named.
  EXPECT_NE(md.find("two-level by GPU 3339.0 ns against flag on g1 2381.0 ns: loses by 40 %"), std::string::npos)
      << md;
  const nlohmann::json j = sync_summary_fields_json(s);
  EXPECT_EQ(j.at("rows").at(0).at("counter_gpu"), "g0");
  EXPECT_EQ(j.at("across_gpus").size(), 2u);
  // One GPU: no section, no column, no key.
  const SyncResult one = test::sync_result(false);
  const SyncSummary single = sync_summary(one);
  EXPECT_TRUE(single.across.empty());
  EXPECT_FALSE(sync_summary_fields_json(single).contains("across_gpus"));
  EXPECT_EQ(sync_summary_markdown(single).find("GPU"), std::string::npos);
}

TEST(SyncAcrossGpus, ThePlotTellsTheCountersGpuByLabelAndColour) {
  const std::vector<PlotPanel> panels = sync_plot_panels(across_two_gpus());
  ASSERT_EQ(panels.size(), 2u);
  std::map<std::string, int> color;
  for (const PlotSeries& s : panels[1].series) color[s.label] = s.color;
  ASSERT_TRUE(color.contains("counter on g0, near")) << panels[1].series.front().label;
  ASSERT_TRUE(color.contains("counter on g1, near"));
  ASSERT_TRUE(color.contains("two-level by GPU, near"));
  EXPECT_NE(color["counter on g0, near"], color["counter on g1, near"]);
  EXPECT_NE(color["flag on g0, far"], color["flag on g1, far"]);
  EXPECT_EQ(color["counter on g0, near"], color["counter on g0, far"]) << "the home is the line's style";
  // grid.sync() has no point anywhere, for one reason: one note, not one per
  // point; a point missing for another reason keeps its own.
  const LinePlotStyle style = sync_plot_style(across_two_gpus());
  ASSERT_EQ(style.notes.size(), 3u);
  EXPECT_EQ(style.notes[0],
            "No point for platform, own at any set and k: not supported here (grid.sync() synchronizes one GPU's grid)");
  EXPECT_EQ(style.notes[1], "No point for counter on g0, far at one-side k=2: timed out");
  EXPECT_EQ(style.notes[2], "No point for counter on g1, far at one-side k=2: timed out");
}

TEST(SyncAcrossGpus, ThePageHasTheAcrossGpusSection) {
  const SyncResult r = across_two_gpus();
  const std::string html = sync_report_html(sync_summary(r), "");
  EXPECT_NE(html.find("<h2>Across GPUs</h2>"), std::string::npos);
  EXPECT_NE(html.find("counter on g0 is cheapest"), std::string::npos);
  EXPECT_NE(html.find("<b>1323.0 ns per barrier</b>, counter on g0"), std::string::npos);
}

}  // namespace
}  // namespace cumap
