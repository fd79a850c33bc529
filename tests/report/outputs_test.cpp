#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "core/map_result.hpp"
#include "report/pairs_csv.hpp"
#include "report/read/pairs_csv.hpp"
#include "core/run_summary.hpp"
#include "report/meta_json.hpp"

namespace cumap {
namespace {

// meta.json of `r`, with the summary a run makes of it.
nlohmann::json meta_of(const MapResult& r) { return make_meta(r, run_summary(r)); }

LatencyMap two_pair_map() {
  LatencyMap map;
  map.spec.placement = Placement::SameLine;
  map.spec.units = {0, 1, 2};
  map.spec.iters = 50;
  map.spec.home_class = 1;
  PairStats ok;
  ok.a = 0;
  ok.b = 1;
  ok.rtt_ns = Summary{200, 180, 260, 170, 300, 5};
  ok.cycles_median = 400;
  ok.cold_ns = 1000;
  ok.iters = 50;
  ok.home_class = 1;
  ok.pass = 0;
  ok.first_flag = 256;
  ok.second_flag = 260;
  PairStats late;
  late.a = 1;
  late.b = 2;
  late.home_class = 1;
  late.pass = 2;
  late.first_flag = 4096;
  late.second_flag = 4100;
  late.rtt_ns = Summary{kNaN, kNaN, kNaN, kNaN, kNaN, 0};
  late.iters = 50;
  late.timed_out = true;
  PairStats other = ok;
  other.b = 2;
  other.rtt_ns.median = 100;
  other.cycles_median = 600;
  map.pairs = {ok, late, other};
  return map;
}

TEST(PairsCsv, HeaderAndOneWayColumns) {
  const LatencyMap map = two_pair_map();
  const std::string csv = pairs_csv({&map});
  std::istringstream lines(csv);
  std::string header, first, second;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_EQ(header,
            "a,b,via,placement,home_class,pass,first_flag,second_flag,flags_on,oneway_ns_median,line_correction_ns,"
            "rtt_ns_median,p05_ns,p95_ns,min_ns,cycles_median,cold_ns,samples,iters,timed_out");
  // p05/p95/min are one-way, like the median; rtt_ns_median and cold_ns are round trips.
  EXPECT_EQ(first, "0,1,global,same-line,1,0,256,260,0,100.000,0.000,200.000,90.000,130.000,85.000,400.000,1000.000,5,50,0");
  EXPECT_EQ(second, "1,2,global,same-line,1,2,4096,4100,0,,0.000,,,,,,,0,50,1");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
}

// Inside a cluster the flags are in shared memory: no home class, no flag
// offsets; the file still reads back (--resume).
TEST(PairsCsv, TheDsmPathNamesNoHomeClassOrFlagLine) {
  const LatencyMap map = two_pair_map();
  const std::string csv = pairs_csv({&map}, Path::Dsm);
  std::istringstream lines(csv);
  std::string header, first;
  std::getline(lines, header);
  std::getline(lines, first);
  EXPECT_EQ(first, "0,1,dsm,same-line,,0,,,0,100.000,0.000,200.000,90.000,130.000,85.000,400.000,1000.000,5,50,0");
  const auto back = parse_pairs_csv(csv);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[1].stats.home_class, 0);
  EXPECT_EQ(back[1].stats.pass, 2);
  EXPECT_EQ(back[1].stats.first_flag, 0u);
  EXPECT_TRUE(back[1].stats.timed_out);
}

// --resume reads pairs.csv back: every field is checked as this cumap writes
// it, and a field that is not refuses the file naming the line and column.
// (nan or 1e300 in an integer column was undefined behaviour, a negative
// flag offset came back as 18446744073709551611, and a measured row without
// samples or round trips went into the "completed" map.)
TEST(PairsCsv, ReadingBackRefusesWhatNoCumapWrites) {
  const LatencyMap map = two_pair_map();
  const std::string csv = pairs_csv({&map});
  ASSERT_EQ(parse_pairs_csv(csv).size(), 3u);
  const std::string header = csv.substr(0, csv.find('\n') + 1);
  const std::string good = "0,1,global,same-line,1,0,256,260,0,100.000,0.000,200.000,90.000,130.000,85.000,400.000,"
                           "1000.000,5,50,0";
  ASSERT_EQ(parse_pairs_csv(header + good + "\n").size(), 1u);
  // Column `column` (0-based) of the good row replaced by `value`.
  const auto with = [&](std::size_t column, const std::string& value) {
    std::vector<std::string> fields;
    std::istringstream in(good);
    for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
    fields.at(column) = value;
    std::string row;
    for (std::size_t i = 0; i < fields.size(); ++i) row += (i ? "," : "") + fields[i];
    return header + good + "\n" + row + "\n";
  };
  struct Bad {
    std::size_t column;
    std::string value;
    std::string mentions;
  };
  const std::vector<Bad> bad{
      {17, "nan", "samples"},         {17, "1e300", "samples"},       {18, "nan", "iters"},
      {18, "1e300", "iters"},         {18, "0x10", "iters"},          {17, "", "samples"},
      {17, "0", "samples"},           {18, "0", "iters"},             {18, "99999999999", "iters"},
      {6, "-5", "first_flag"},        {7, "18446744073709551611", "second_flag"},
      {6, "258", "first_flag"},       {4, "-1", "home_class"},        {4, "", "home_class"},
      {5, "2.5", "pass"},             {5, " 1", "pass"},              {8, "-1", "flags_on"},
      {19, "2", "timed_out"},         {19, "", "timed_out"},          {2, "smem", "via"},
      {3, "diagonal", "placement"},   {0, "x", "a"},                  {1, "0", "b"},
      {11, "nan", "rtt_ns_median"},   {11, "inf", "rtt_ns_median"},   {11, "", "rtt_ns_median"},
      {12, "-3", "p05_ns"},           {16, "1e999", "cold_ns"},       {10, "nan", "line_correction_ns"},
      {15, "0x1p3", "cycles_median"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.mentions + " = '" + b.value + "'");
    try {
      parse_pairs_csv(with(b.column, b.value));
      ADD_FAILURE() << "accepted";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("line 3"), std::string::npos) << what;
      EXPECT_NE(what.find(b.mentions), std::string::npos) << what;
    }
  }
  // A timed-out row is measured again: its empty values are fine.
  EXPECT_EQ(parse_pairs_csv(with(19, "1")).size(), 2u);
}

// A run of one placement with one home class: the headline is the class's
// map. With --via dsm there are no homes, classes or sides.
MapResult one_map_run(const LatencyMap& map, const Options& options = {}) {
  MapResult r;
  r.settings.via = options.via;
  r.settings.options = to_json(options);
  r.device.backend = "cpu";
  r.device.name = "Test CPU";
  r.device.unit_name = "core";
  r.device.unit_count = 3;
  r.device.extra = {{"numa_nodes", 1}, {"smt", true}};
  r.topology.source = "sysfs";
  r.topology.groups = {{"die0", {0, 1, 2}}};
  r.display_order = {0, 1, 2};
  r.run = RunInfo{"0.1.0", "2026-01-02T03:04:05Z", "box", "cumap run", 1.5, {}};
  HomesResult homes;
  for (int u : {0, 1, 2}) homes.table.units.push_back(UnitRef{0, u});
  homes.unit_ids = {0, 1, 2};
  homes.classes.unit_side = {0, 0, 0};
  if (r.settings.has_homes()) r.homes = {homes};
  PlacementResult placement;
  placement.placement = map.placement();
  placement.per_class = {map};
  MapSpec headline = map.spec;
  headline.home_class = MapSpec::kAllClasses;
  summarize_placement(placement, headline);
  r.placements = {placement};
  if (r.settings.has_homes()) r.structure = {StructureRow{"same-side", 2, 75.0, 50.0, 100.0, 2}};
  return r;
}

// --via dsm: the flags are in shared memory, so meta.json says nothing of
// homes, sides, classes or lines.
TEST(Meta, TheDsmPathNamesNoHomesSidesOrClasses) {
  Options options;
  options.via = Path::Dsm;
  const nlohmann::json meta = meta_of(one_map_run(two_pair_map(), options));
  for (const char* key : {"homes", "structure", "lines_per_class"}) EXPECT_FALSE(meta.contains(key)) << key;
  ASSERT_EQ(meta["maps"].size(), 1u);
  for (const char* key : {"home_class", "per_class", "sides_agreement_ari", "line_sets_agreement"})
    EXPECT_FALSE(meta["maps"][0].contains(key)) << key;
  EXPECT_TRUE(meta["maps"][0].contains("oneway_ns"));
  // The global path keeps them.
  const nlohmann::json global = meta_of(one_map_run(two_pair_map()));
  for (const char* key : {"homes", "structure", "lines_per_class"}) EXPECT_TRUE(global.contains(key)) << key;
  EXPECT_TRUE(global["maps"][0].contains("per_class"));
}

TEST(Meta, HasEveryDocumentedKey) {
  Options options;
  options.placements = {Placement::SplitLine};
  options.out_dir = "results/run1";
  const nlohmann::json meta = meta_of(one_map_run(two_pair_map(), options));
  for (const char* key : {"tool", "tool_version", "timestamp_utc", "host", "command_line", "wall_seconds", "backend",
                          "device", "options", "topology", "units", "homes", "structure", "maps"})
    EXPECT_TRUE(meta.contains(key)) << key;
  EXPECT_EQ(meta["tool"], "cumap");
  EXPECT_EQ(meta["host"], "box");
  EXPECT_EQ(meta["backend"], "cpu");
  for (const char* key : {"name", "unit_name", "unit_count", "clock_source", "clock_hz", "runtime_version",
                          "driver_version", "numa_nodes", "smt"})
    EXPECT_TRUE(meta["device"].contains(key)) << key;
  for (const char* key : {"placements", "backend", "device", "units_spec", "iters", "samples", "warmup",
                          "timeout_ms", "ordered", "out_dir", "quiet", "flush_cache", "lines_per_class",
                          "l2_persist", "probe", "order", "colormap", "hip_unit", "schedule", "via", "home_lines"})
    EXPECT_TRUE(meta["options"].contains(key)) << key;
  EXPECT_EQ(meta["options"]["placements"], nlohmann::json::array({"split-line"}));
  EXPECT_EQ(meta["options"]["out_dir"], "results/run1");
  EXPECT_EQ(meta["options"]["probe"], "cas");
  EXPECT_EQ(meta["topology"]["groups"][0]["name"], "die0");
  EXPECT_EQ(meta["units"], nlohmann::json::array({0, 1, 2}));
  EXPECT_EQ(meta["structure"][0]["relation"], "same-side");
  EXPECT_EQ(meta["structure"][0]["cells"], 2);

  ASSERT_EQ(meta["maps"].size(), 1u);
  const nlohmann::json& map = meta["maps"][0];
  EXPECT_EQ(map["placement"], "same-line");
  EXPECT_EQ(map["home_class"], "all");  // the headline
  EXPECT_EQ(map["pair_count"], 3);
  // Finite cells: 100 twice (0-1 mirrored) and 50 twice (0-2).
  EXPECT_DOUBLE_EQ(map["oneway_ns"]["median"].get<double>(), 75.0);
  EXPECT_DOUBLE_EQ(map["oneway_ns"]["min"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(map["oneway_ns"]["max"].get<double>(), 100.0);
  EXPECT_TRUE(map["oneway_ns"].contains("p05"));
  EXPECT_TRUE(map["oneway_ns"].contains("p95"));
  EXPECT_DOUBLE_EQ(map["rtt_cycles_median"].get<double>(), 500.0);
  EXPECT_EQ(map["timed_out_pairs"], nlohmann::json::parse("[[1,2]]"));
  ASSERT_EQ(map["per_class"].size(), 1u);
  EXPECT_EQ(map["per_class"][0]["home_class"], 1);
}

TEST(Meta, NoCyclesIsNull) {
  LatencyMap map = two_pair_map();
  for (PairStats& p : map.pairs) p.cycles_median = kNaN;
  const nlohmann::json meta = meta_of(one_map_run(map));
  EXPECT_TRUE(meta["maps"][0]["rtt_cycles_median"].is_null());
}

TEST(Meta, TimestampIsIso8601Utc) {
  EXPECT_TRUE(std::regex_match(utc_timestamp_now(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  EXPECT_FALSE(host_name().empty());
}

TEST(PairsCsv, AcrossGpusUnitsAndTheFlagsGpuReadBack) {
  LatencyMap map;
  map.spec.units = {0, 100000};
  PairStats p;
  p.a = 0;
  p.b = 100000;
  p.flag_device = 1;
  p.first_flag = 128;
  p.second_flag = 132;
  p.rtt_ns = {2000, 1900, 2100, 1800, 0, 5};
  p.iters = 50;
  map.pairs = {p};
  const std::string csv = pairs_csv({&map});
  EXPECT_NE(csv.find("\ng0.0,g1.0,global,same-line,0,0,128,132,1,"), std::string::npos) << csv;
  const auto back = parse_pairs_csv(csv);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].stats.a, 0);
  EXPECT_EQ(back[0].stats.b, 100000);
  EXPECT_EQ(back[0].stats.flag_device, 1);
}

}  // namespace
}  // namespace cumap
