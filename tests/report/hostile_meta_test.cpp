// A meta.json read back is input: `cumap summary` of a hand-edited or
// damaged one must say what is wrong or show what it can, never convert a
// number out of its type's range (get<int> of 1e300 is undefined
// behaviour), divide by a value it has not checked, or print markup from a
// device's name into summary.md. Every number of a summary's meta.json is
// replaced in turn by a hostile value, and the summary is made again in
// every format; under the sanitizer build (scripts/build-sanitized) any
// undefined behaviour aborts the test.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/run_summary.hpp"
#include "core/sync_summary.hpp"
#include "publish/json_file.hpp"
#include "report/order_file.hpp"
#include "report/summary_formats.hpp"
#include "report/summary_json.hpp"
#include "report/summary_md.hpp"
#include "report/sync_summary_formats.hpp"
#include "report/sync_summary_md.hpp"
#include "sync_result_fixture.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

using Json = nlohmann::json;

// A map across two GPUs of two classes, and a map of one chip of one class
// with both placements: between them every finding that divides.
RunSummary across_gpus_summary() {
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
  m.pairs = 6;
  m.completed_pairs = 5;
  m.median_ns = 400.25;
  m.p05_ns = 300.5;
  m.p95_ns = 900.125;
  m.min_ns = 290.0;
  m.max_ns = 910.0;
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

RunSummary one_class_summary() {
  RunSummary s;
  s.run.device_name = "a CPU";
  s.run.backend = "cpu";
  s.run.unit_name = "cpu";
  s.run.units = {0, 1, 2, 3};
  s.run.class_count = 1;
  s.run.sides = {{"side0", {0, 1, 2, 3}}};
  s.via = "global";
  s.probe = "cas";
  for (const char* placement : {"same-line", "split-line"}) {
    RunSummary::Map m;
    m.placement = placement;
    m.pairs = m.completed_pairs = 6;
    m.median_ns = placement == std::string("same-line") ? 100.0 : 150.0;
    m.p05_ns = 90.0;
    m.p95_ns = 200.0;
    m.min_ns = 80.0;
    m.max_ns = 210.0;
    s.maps.push_back(m);
  }
  add_findings(s);
  return s;
}

// Every leaf of `j`, as a JSON pointer.
void leaves(const Json& j, const Json::json_pointer& at, std::vector<Json::json_pointer>& out) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) leaves(value, at / key, out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) leaves(j[i], at / i, out);
  } else {
    out.push_back(at);
  }
}

std::vector<Json> hostile_values() {
  return {Json(0),
          Json(-1),
          Json(1e300),
          Json(-1e300),
          Json(1e-300),
          Json(2.5),
          Json(std::int64_t{9223372036854775807}),
          Json(std::int64_t{-9223372036854775807} - 1),
          Json(std::uint64_t{18446744073709551615u}),
          Json("x"),
          Json(),
          Json::array(),
          Json::object()};
}

// The summary of `meta` in every format, as `cumap summary` makes them:
// anything but a one-line UsageError is a failure.
void summarize_map(const Json& meta) {
  try {
    const RunSummary s = run_summary_from_json(meta);
    (void)summary_markdown(s);
    (void)summary_csv(s);
    (void)json_file_text(summary_fields_json(s));
  } catch (const UsageError&) {
  }
}

void summarize_sync(const Json& meta) {
  try {
    const SyncSummary s = sync_summary_from_json(meta);
    (void)sync_summary_markdown(s);
    (void)sync_summary_csv(s);
    (void)json_file_text(sync_summary_fields_json(s));
  } catch (const UsageError&) {
  }
}

TEST(HostileMeta, EveryNumberOfAMapsSummaryReplacedByAHostileValue) {
  for (const RunSummary& summary : {across_gpus_summary(), one_class_summary()}) {
    const Json meta = Json::parse(to_json(summary).dump());
    std::vector<Json::json_pointer> paths;
    leaves(meta, Json::json_pointer(), paths);
    ASSERT_GT(paths.size(), 20u);
    for (const Json::json_pointer& path : paths) {
      SCOPED_TRACE(path.to_string());
      for (const Json& value : hostile_values()) {
        Json hostile = meta;
        hostile[path] = value;
        summarize_map(hostile);
      }
    }
  }
}

TEST(HostileMeta, EveryNumberOfABarrierOrContentionSummaryReplacedByAHostileValue) {
  for (const bool contention : {false, true}) {
    const Json meta = Json::parse(to_json(sync_summary(test::sync_result(contention))).dump());
    std::vector<Json::json_pointer> paths;
    leaves(meta, Json::json_pointer(), paths);
    for (const Json::json_pointer& path : paths) {
      SCOPED_TRACE(path.to_string());
      if (path.to_string() == "/tool" || path.to_string() == "/command") continue;  // then it is no such summary
      for (const Json& value : hostile_values()) {
        Json hostile = meta;
        hostile[path] = value;
        summarize_sync(hostile);
      }
    }
    // Every case's cost zero: nothing compares against it.
    Json zero = meta;
    for (Json& c : zero["cases"]["at_every_unit"]) c["per_barrier_ns"] = 0, c["ns"]["median"] = 0;
    summarize_sync(zero);
  }
}

// summary.md copied a device's name into its heading as it was: markup in
// it would run wherever the page is rendered. The barrier's table did not
// escape |, which ends a cell.
TEST(HostileMeta, NamesAreTextInSummaryMd) {
  RunSummary s = one_class_summary();
  s.run.device_name = "<img src=x onerror=alert(1)> & co";
  s.run.host = "<script>alert(2)</script>";
  s.run.command_line = "cumap --out '<b>|x'";
  const std::string md = summary_markdown(s);
  EXPECT_EQ(md.find("<img"), std::string::npos) << md;
  EXPECT_EQ(md.find("<script"), std::string::npos) << md;
  EXPECT_NE(md.find("# cumap: &lt;img src=x onerror=alert(1)&gt; &amp; co"), std::string::npos) << md;
  EXPECT_NE(md.find("| command | `cumap --out '<b>\\|x'` |"), std::string::npos) << md;

  SyncSummary sync = sync_summary(test::sync_result(false));
  sync.run.device_name = "<svg onload=alert(3)>";
  sync.at_every_unit.front().label.set = "one|side";
  const std::string sync_md = sync_summary_markdown(sync);
  EXPECT_EQ(sync_md.find("<svg"), std::string::npos) << sync_md;
  EXPECT_NE(sync_md.find("one\\|side"), std::string::npos) << sync_md;
}

// A side named side2147483647 in an --order meta.json overflowed the count
// of sides (signed overflow: undefined behaviour).
TEST(HostileMeta, ASideNumberPastTheListIsItsPlace) {
  const test::TempDir dir;
  const Json meta = {{"tool", "cumap"},
                     {"display_order", {0, 1, 2, 3}},
                     {"topology", {{"groups", Json::array()}}},
                     {"homes",
                      {{"sides",
                        {{{"name", "side2147483647"}, {"units", {0, 1}}}, {{"name", "side-5"}, {"units", {2, 3}}}}}}}};
  const auto path = dir.file("meta.json", meta.dump());
  const DisplaySpec spec = read_order(path, {0, 1, 2, 3}, "matrix-same-line.csv");
  EXPECT_EQ(spec.order, (std::vector<int>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace cumap
