// The checks and warnings a reader needs to trust a map (core/run_checks.cpp):
// the serial self-checks in words, and the warnings every output carries
// (console, summary.md, report.html, meta.json read back by `cumap summary`),
// from hand-built results and from the map engine over the fake chip.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/map_result.hpp"
#include "core/run_summary.hpp"
#include "fake_chip_backend.hpp"
#include "publish/output_set.hpp"
#include "report/map_outputs.hpp"
#include "report/summary_json.hpp"
#include "run/map_run.hpp"
#include "small_map.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace run_checks_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

std::string read(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

SelfCheck check(int pairs_per_round, double median_rel_diff, bool passed) {
  SelfCheck c;
  c.pairs_per_round = pairs_per_round;
  c.agreement.n = 48;
  c.agreement.median_rel_diff = median_rel_diff;
  c.passed = passed;
  return c;
}

TEST(CheckWords, APassedCheckSaysHowCloseAndWhatWasKept) {
  RunSummary::Map m;
  m.pairs_per_round = 66;
  m.checks = {check(66, 0.0148, true)};
  EXPECT_EQ(check_words(m), "agreed within 1.5 % of a serial measurement (median over 48 pairs); 66 pairs per round kept");
}

TEST(CheckWords, AFailedConcurrencySaysWhereItWasMeasuredAgain) {
  RunSummary::Map m;
  m.pairs_per_round = 33;
  m.checks = {check(66, 0.052, false), check(33, 0.012, true)};
  EXPECT_EQ(check_words(m),
            "failed at 66 pairs per round (5.2 % from the serial measurement); re-measured at 33 pairs per round, "
            "where it agreed within 1.2 % of a serial measurement (median over 48 pairs)");
  m.pairs_per_round = 1;
  m.checks = {check(66, 0.052, false)};
  EXPECT_EQ(check_words(m),
            "failed at 66 pairs per round (5.2 % from the serial measurement); re-measured at one pair at a time");
}

TEST(CheckWords, OnePairAtATimeSaysNothingWasCompared) {
  RunSummary::Map m;
  m.pairs_per_round = 1;
  EXPECT_TRUE(contains(check_words(m), "measured one pair at a time: no concurrent measurement to check"));
}

// A result of one placement with one class whose cells all read 50 ns with
// a p05-p95 spread of 5 ns, but for one pair whose samples range to 30 µs.
MapResult unsteady_result() {
  MapResult r;
  r.device.unit_name = "core";
  PlacementResult p;
  p.pairs_per_round = 4;
  p.checks = {check(4, 0.01, true)};
  const std::vector<int> units{0, 1, 2, 3, 4, 5};
  p.per_class_ns = {ValueMatrix::filled(units, 50.0)};
  p.per_class_p05_ns = {ValueMatrix::filled(units, 48.0)};
  p.per_class_p95_ns = {ValueMatrix::filled(units, 53.0)};
  for (std::size_t i = 0; i < units.size(); ++i) p.per_class_ns[0].at(i, i) = NAN;
  p.per_class_ns[0].at(2, 4) = 210.0;
  p.per_class_p95_ns[0].at(2, 4) = 30000.0;
  r.placements.push_back(p);
  return r;
}

TEST(RunWarnings, CellsWhoseSamplesDisagreeFarBeyondTheRunsNoiseAreNamed) {
  const MapResult r = unsteady_result();
  const std::vector<std::string> warnings = run_warnings(r, RunSummary{});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(contains(warnings[0], "1 of 30 cells have samples that disagree")) << warnings[0];
  EXPECT_TRUE(contains(warnings[0], "core 2 and 4, reads 210.0 ns with p05 48.0 and p95 30000.0 ns")) << warnings[0];
  // Steady cells: nothing to warn of.
  MapResult steady = r;
  steady.placements[0].per_class_p95_ns[0].at(2, 4) = 53.0;
  EXPECT_TRUE(run_warnings(steady, RunSummary{}).empty());
}

TEST(RunWarnings, TheBackendChoiceAndOtherProcessesOnTheGpuAreWarnings) {
  MapResult r;
  r.run.backend_choice = "--backend auto chose the cpu backend (the CPU's cores): cuda: no CUDA device";
  DeviceInfo::Neighbours n;
  n.pci_bus_id = "0000:17:00.0";
  n.known = true;
  n.processes.resize(2);
  r.device.neighbours.push_back(n);
  const std::vector<std::string> warnings = run_warnings(r, RunSummary{});
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], r.run.backend_choice);
  EXPECT_TRUE(contains(warnings[1], "2 other compute process(es) on GPU 0000:17:00.0")) << warnings[1];
}

// A run measured one pair at a time checks nothing: every output says so,
// and `cumap summary` reads the warning and the checks back from meta.json.
TEST(RunWarnings, ASerialRunSaysEverywhereThatNoSelfCheckCouldRun) {
  test::TempDir dir;
  test::FakeChip spec;
  spec.units = 8;
  test::FakeChipBackend chip(spec);
  Options o = test::small_options();
  o.schedule = ScheduleKind::Serial;
  o.placements = {Placement::SameLine};
  o.quiet = true;
  o.out_dir = dir.path() / "out";
  MapResult r = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o);
  r.run.command_line = "test";
  const RunSummary summary = run_summary(r);
  ASSERT_FALSE(summary.warnings.empty());
  EXPECT_TRUE(contains(summary.warnings.back(), "same-line: one pair per round, so no self-check could run"));
  OutputSet out(o.out_dir);
  write_map_outputs(r, out);
  out.publish();
  const std::string md = read(o.out_dir / "summary.md");
  EXPECT_TRUE(contains(md, "**Warning: same-line: one pair per round, so no self-check could run")) << md;
  EXPECT_TRUE(contains(md, "## Checks")) << md;
  EXPECT_TRUE(contains(md, "- same-line: measured one pair at a time")) << md;
  const std::string html = read(o.out_dir / "report.html");
  EXPECT_TRUE(contains(html, "one pair per round, so no self-check could run"));
  EXPECT_TRUE(contains(html, "measured one pair at a time"));
  const RunSummary back = run_summary_from_json(nlohmann::json::parse(read(o.out_dir / "meta.json")), "meta.json");
  EXPECT_EQ(back.warnings, summary.warnings);
}

// A concurrent run on a quiet chip passes its check: its words say how close,
// and nothing is warned of.
TEST(RunWarnings, AConcurrentRunThatPassesItsCheckSaysSoAndWarnsOfNothing) {
  test::FakeChip spec;
  spec.units = 8;
  test::FakeChipBackend chip(spec);
  Options o = test::small_options();
  o.placements = {Placement::SameLine};
  o.quiet = true;
  MapResult r = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o);
  const RunSummary summary = run_summary(r);
  EXPECT_TRUE(summary.warnings.empty()) << summary.warnings.front();
  ASSERT_EQ(summary.maps.size(), 1u);
  ASSERT_GT(summary.maps[0].pairs_per_round, 1);
  EXPECT_TRUE(contains(check_words(summary.maps[0]), "agreed within")) << check_words(summary.maps[0]);
}

}  // namespace
}  // namespace cumap
