// The summaries' meta.json keys: one writer (to_json) and one reader
// (*_from_json), each the other's inverse, so that `cumap summary DIR`
// reads back exactly the summary the run wrote its pages from.
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/run_summary.hpp"
#include "core/sync_summary.hpp"
#include "report/summary_json.hpp"
#include "sync_result_fixture.hpp"

namespace cumap {
namespace {

using Json = nlohmann::json;

// What a run writes and `cumap summary` reads: the JSON as text.
Json on_disk(const Json& j) { return Json::parse(j.dump(2)); }

// A map across two GPUs of two classes, with what a summary can hold: a
// serial per GPU, a caveat, sides, timed-out pairs, both structure tables
// and the rows between GPUs.
RunSummary two_gpu_summary() {
  RunSummary s;
  s.run = {"0.2.0", "2026-11-27T10:00:00Z", "host", "cumap --devices 0,1", 12.5, "cuda", "2 x NVIDIA H200", "SM",
           "580.159.04", "13.0", {"1653724059025", ""}, "a caveat", {0, 1, 100000, 100001}, 2,
           {{"g0 side0", {0}}, {"g0 side1", {1}}, {"g1 side0", {100000}}, {"g1 side1", {100001}}}};
  s.via = "global";
  s.probe = "cas";
  s.iters = 20;
  s.samples = 5;
  s.timeout_ms = 1000.0;
  s.lines_per_class = 24;
  s.cross_lines = 12;
  RunSummary::Map m;
  m.placement = "same-line";
  m.complete = false;
  m.pairs = 6;
  m.completed_pairs = 5;
  m.median_ns = 400.25;
  m.p05_ns = 300.5;
  m.p95_ns = 900.125;
  m.min_ns = 290.0;
  m.max_ns = 910.0;
  m.pairs_per_round = 2;
  m.timed_out_pairs = {{0, 100001}};
  m.gpu_pairs = {{{0, 0, "g0", 1, {300.5, 300.5, 300.5, 300.5, 300.5, 1}}, "same GPU"},
                 {{0, 1, "both", 4, {850.0, 800.0, 900.0, 790.0, 910.0, 4}}, "NV18"}};
  m.cross_gpu_structure = {{0, 1, 0, 0, 0, 1, 830.0, 820.0, 840.0, 2}, {0, 1, 1, 1, 1, 0, 870.0, 860.0, 880.0, 2}};
  s.maps = {m};
  s.structure = {{"same-line", 0, {"same-side", 2, 280.0, 270.0, 290.0, 1}},
                 {"same-line", 1, {"other-side", 1, 350.0, 340.0, 360.0, 2}}};
  s.same_line_pooled = {{"same-side", 2, 280.0, 270.0, 290.0, 2}};
  add_findings(s);
  return s;
}

TEST(SummaryJson, AMapsSummaryReadsBackExactly) {
  const RunSummary s = two_gpu_summary();
  ASSERT_FALSE(s.across_gpu_findings.empty());
  EXPECT_EQ(run_summary_from_json(on_disk(to_json(s))), s);
}

// --no-pairs-csv: the advice to continue with --resume, which needs
// pairs.csv, becomes advice to map again, and the choice reads back.
TEST(SummaryJson, ARunWithoutPairsCsvIsNotToldToResumeAndReadsBack) {
  RunSummary s = two_gpu_summary();
  const auto says = [](const RunSummary& summary, const std::string& words) {
    for (const std::string& f : summary.findings)
      if (f.find(words) != std::string::npos) return true;
    return false;
  };
  s.interrupted = true;
  add_findings(s);
  EXPECT_TRUE(says(s, "--resume DIR")) << "with pairs.csv an interrupted run and its timed-out pairs can be continued";
  s.pairs_csv = false;
  add_findings(s);
  EXPECT_FALSE(says(s, "--resume"));
  EXPECT_TRUE(says(s, "it cannot be continued: map it again"));
  EXPECT_TRUE(says(s, "1 pair(s) timed out (listed below; their cells are empty): map again to measure them"));
  EXPECT_EQ(run_summary_from_json(on_disk(to_json(s))), s);
}

TEST(SummaryJson, ADsmMapsSummaryReadsBackExactly) {
  RunSummary s;
  s.run.device_name = "NVIDIA H100";
  s.run.units = {0, 1, 2, 3};
  s.via = "dsm";
  RunSummary::Map m;
  m.placement = "same-line";
  m.pairs = m.completed_pairs = 6;
  m.median_ns = m.p05_ns = m.p95_ns = m.min_ns = m.max_ns = 190.0;
  m.cluster_barrier = {{2, 66, 380.5, 753.0}, {4, 33, 410.0, 812.0}};
  s.maps = {m};
  add_findings(s);
  const Json j = to_json(s);
  EXPECT_FALSE(j.contains("homes")) << "no homes, classes or sides on the dsm path";
  EXPECT_FALSE(j.contains("structure"));
  EXPECT_EQ(run_summary_from_json(on_disk(j)), s);
}

TEST(SummaryJson, TheHeaderWritesACaveatOnlyWhereThereIsOne) {
  RunHeader h;
  h.units = {0, 1};
  EXPECT_FALSE(to_json(h).contains("caveat"));
  h.caveat = "not checked on hardware";
  EXPECT_EQ(to_json(h).at("caveat"), "not checked on hardware");
}

TEST(SummaryJson, BarrierAndContentionSummariesReadBackExactly) {
  for (const bool contention : {false, true}) {
    SCOPED_TRACE(contention ? "contention" : "barrier");
    const SyncSummary s = sync_summary(test::sync_result(contention));
    ASSERT_FALSE(s.at_every_unit.empty());
    const Json j = on_disk(to_json(s));
    EXPECT_TRUE(j.at("cases").contains("at_every_unit"));
    EXPECT_EQ(sync_summary_from_json(j), s);
  }
}

}  // namespace
}  // namespace cumap
