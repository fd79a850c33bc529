// summary.md, units.csv and topology.json from results built by hand and
// from the map engine over the fake chip: the words and numbers a reader
// acts on, one code path for the run and `cumap summary`, and the truthful
// account of a run in which no pair completed.
#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cumap/error.hpp"
#include "fake_chip_backend.hpp"
#include "core/map_result.hpp"
#include "core/run_summary.hpp"
#include "publish/output_set.hpp"
#include "report/map_outputs.hpp"
#include "report/read/meta_json.hpp"
#include "report/summary_formats.hpp"
#include "report/summary_json.hpp"
#include "report/summary_line.hpp"
#include "report/summary_md.hpp"
#include "report/topology_json.hpp"
#include "run/map_run.hpp"
#include "small_map.hpp"
#include "file_text.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

using test::file_text;

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

Json structure_row(const std::string& placement, int cls, const std::string& relation, int near, double median,
                   double p05, double p95, std::size_t cells) {
  return {{"placement", placement}, {"home_class", cls}, {"relation", relation}, {"near_units", near},
          {"median_ns", median},    {"p05_ns", p05},     {"p95_ns", p95},        {"cells", cells}};
}

// A meta.json shaped like plots/h100/meta.json's, with the per-class rows a
// run writes now (the H100's numbers: side 0 near class 0, 66 SMs a side).
Json h100_like_meta() {
  Json maps = Json::array();
  for (const char* placement : {"same-line", "split-line"})
    maps.push_back({{"placement", placement},
                    {"complete", true},
                    {"pair_count", 8646},
                    {"completed_pairs", 8646},
                    {"pairs_per_round", 66},
                    {"timed_out_pairs", Json::array()},
                    {"oneway_ns", {{"median", 349.5}, {"p05", 335.3}, {"p95", 358.3}, {"min", 319.9}, {"max", 370.6}}}});
  Json by_class = Json::array();
  for (const char* placement : {"same-line", "split-line"}) {
    by_class.push_back(structure_row(placement, 0, "same-side", 2, 274.2, 267.0, 282.0, 2145));
    by_class.push_back(structure_row(placement, 0, "same-side", 0, 427.1, 419.3, 435.8, 2145));
    by_class.push_back(structure_row(placement, 0, "other-side", 1, 349.9, 325.8, 363.3, 4356));
    by_class.push_back(structure_row(placement, 1, "same-side", 2, 273.4, 266.9, 281.5, 2145));
    by_class.push_back(structure_row(placement, 1, "same-side", 0, 425.8, 419.0, 435.1, 2145));
    by_class.push_back(structure_row(placement, 1, "other-side", 1, 349.6, 325.7, 363.2, 4356));
  }
  std::vector<int> units(132);
  for (int i = 0; i < 132; ++i) units[static_cast<std::size_t>(i)] = i;
  return {{"tool", "cumap"},
          {"tool_version", "0.1.0"},
          {"timestamp_utc", "2026-11-24T22:33:10Z"},
          {"host", "vm"},
          {"command_line", "cumap --backend cuda --out plots/h100"},
          {"wall_seconds", 12.3},
          {"backend", "cuda"},
          {"device",
           {{"name", "NVIDIA H100 80GB HBM3"}, {"unit_name", "SM"}, {"driver_version", "580.159.04"},
            {"runtime_version", "13.0"}, {"serial", "1752624008303"}}},
          {"units", units},
          {"homes", {{"class_count", 2}, {"sides", {{{"name", "side0"}, {"units", std::vector<int>(66)}},
                                                    {{"name", "side1"}, {"units", std::vector<int>(66)}}}}}},
          {"options", {{"via", "global"}, {"probe", "cas"}, {"samples", 5}, {"timeout_ms", 1000.0}}},
          {"iters", 50},
          {"lines_per_class", 64},
          {"interrupted", false},
          {"maps", maps},
          {"structure_by_class", by_class}};
}

TEST(RunSummary, TwoClassesSayWhereAFlagShouldLive) {
  const RunSummary s = run_summary_from_json(h100_like_meta());
  ASSERT_GE(s.findings.size(), 2u);
  EXPECT_EQ(s.findings[0],
            "A flag shared by SMs of side 0 costs 274 ns one-way in a class-0 line and 426 ns in a class-1 line; of "
            "side 1, 273 ns in a class-1 line and 427 ns in a class-0 line (same-line map): put a flag that one "
            "side's SMs share in a line of the class that side is near (homes.json lists every line's class, "
            "units.csv every SM's side).");
  EXPECT_EQ(s.findings[1], "Pairs across sides cost 350 ns one-way whichever class the line is in.");
  const std::string md = summary_markdown(s);
  for (const char* part :
       {"# cumap: NVIDIA H100 80GB HBM3", "| serial | 1752624008303 |", "| driver | 580.159.04, runtime 13.0 |",
        "| date | 2026-11-24T22:33:10Z |", "| command | `cumap --backend cuda --out plots/h100` |",
        "2 home class(es) (66 / 66 SMs per side)",
        "| same-line | 8646 of 8646 | 349.5 | 335.3–358.3 | 319.9–370.6 | 66 | yes |",
        "| same-line | class 0 | near side (side 0) | 274.2 | 267.0–282.0 | 2145 |",
        "| same-line | class 0 | far side (side 1) | 427.1 | 419.3–435.8 | 2145 |",
        "| split-line | class 1 | across sides | 349.6 | 325.7–363.2 | 4356 |", "## Timed-out pairs\n\nNone.",
        "m.columns = m.columns.astype(int)"})
    EXPECT_TRUE(contains(md, part)) << part << "\n" << md;
  EXPECT_FALSE(std::regex_search(md, std::regex(R"(\bnan\b)", std::regex::icase))) << md;
}

TEST(RunSummary, OneClassSaysTheMapIsFlat) {
  Json meta = h100_like_meta();
  meta["homes"]["class_count"] = 1;
  meta["homes"]["sides"] = Json::array({{{"name", "side0"}, {"units", std::vector<int>(132)}}});
  meta["maps"][0]["oneway_ns"] = {{"median", 100.0}, {"p05", 96.0}, {"p95", 103.0}, {"min", 90.0}, {"max", 110.0}};
  meta["maps"][1]["oneway_ns"] = {{"median", 101.0}, {"p05", 97.0}, {"p95", 104.0}, {"min", 91.0}, {"max", 111.0}};
  meta["structure_by_class"] = Json::array({structure_row("same-line", 0, "same-side", 2, 100.0, 96.0, 103.0, 8646)});
  const RunSummary s = run_summary_from_json(meta);
  ASSERT_EQ(s.findings.size(), 1u);
  EXPECT_EQ(s.findings[0],
            "One home class: no flag line is nearer to some SMs than to others, so where a flag lives does not "
            "matter here; the same-line map is flat within 7 % (p05-p95 96.0-103.0 ns around its median 100.0 ns).");
}

// plots/h100/meta.json as committed predates the per-class rows: the pooled
// same-line rows stand in.
TEST(RunSummary, AMetaJsonWithoutPerClassRowsUsesThePooledOnes) {
  Json meta = h100_like_meta();
  meta.erase("structure_by_class");
  meta["structure"] = Json::array({{{"relation", "same-side"}, {"near_units", 2}, {"median_ns", 274.2}, {"cells", 4290}},
                                   {{"relation", "same-side"}, {"near_units", 0}, {"median_ns", 426.4}, {"cells", 4290}},
                                   {{"relation", "other-side"}, {"near_units", 1}, {"median_ns", 349.8}, {"cells", 8712}}});
  const RunSummary s = run_summary_from_json(meta);
  ASSERT_EQ(s.structure.size(), 3u);
  EXPECT_FALSE(s.structure[0].home_class);
  ASSERT_FALSE(s.findings.empty());
  EXPECT_TRUE(contains(s.findings[0], "costs 274 ns one-way in a line of the class that side is near and 426 ns"))
      << s.findings[0];
  EXPECT_TRUE(contains(summary_markdown(s), "| same-line | every class (pooled) | near side | 274.2 | – | 4290 |"));
}

TEST(RunSummary, CsvIsOneRowPerPlacementClassAndRelation) {
  const std::string csv = summary_csv(run_summary_from_json(h100_like_meta()));
  std::istringstream in(csv);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 1u + 2u + 12u);  // header, a headline per placement, 2 x 2 x 3 structure rows
  EXPECT_EQ(lines[0], "placement,home_class,relation,near_units,where,median_ns,p05_ns,p95_ns,cells");
  EXPECT_EQ(lines[1], "same-line,all,all,,every pair,349.500,335.300,358.300,8646");
  EXPECT_EQ(lines[3], "same-line,0,same-side,2,near side (side 0),274.200,267.000,282.000,2145");
  const Json j = summary_fields_json(run_summary_from_json(h100_like_meta()));
  EXPECT_EQ(j.at("class_count"), 2);
  EXPECT_EQ(j.at("structure").size(), 12u);
  EXPECT_EQ(j.at("device").at("serials"), Json::array({"1752624008303"}));
  EXPECT_FALSE(j.at("no_pair_completed").get<bool>());
}

TEST(RunSummary, OnlyAMapsMetaJsonIsSummarized) {
  EXPECT_THROW(run_summary_from_json(Json::object()), UsageError);
  EXPECT_THROW(run_summary_from_json({{"tool", "other"}, {"maps", Json::array()}}), UsageError);
  try {
    run_summary_from_json({{"tool", "cumap"}, {"homes", Json::object()}});
    FAIL() << "a meta.json of cumap homes has no maps";
  } catch (const UsageError& e) {
    EXPECT_TRUE(contains(e.what(), "cumap homes")) << e.what();
  }
}

// The map engine over the fake chip, and its files, as run_map writes them.
struct FakeRun {
  fs::path dir = fs::temp_directory_path() / ("cumap-summary-" + std::to_string(::getpid()));
  MapResult result;
  FakeRun() { fs::remove_all(dir); }
  ~FakeRun() { fs::remove_all(dir); }

  void map(const test::FakeChip& spec, Options o = test::small_options()) {
    test::FakeChipBackend chip(spec);
    o.lines_per_class = 2;
    o.quiet = true;
    o.out_dir = dir;
    result = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o);
    result.run.command_line = "cumap --backend fake";
    result.run.timestamp_utc = "2026-11-25T00:00:00Z";
    OutputSet out(o.out_dir);
    write_map_outputs(result, out);
    out.publish();
  }
};

// Near 150 ns, far 250 ns per reach: a same-line pair costs the sum of its
// units' reaches one-way, 300 near, 500 far, 400 across.
TEST(RunSummary, AFakeTwoClassRunSaysItsNumbers) {
  FakeRun run;
  run.map({});
  const std::string md = file_text(run.dir / "summary.md");
  EXPECT_TRUE(contains(md, "A flag shared by units of side 0 costs 300 ns one-way in a class-0 line and 500 ns in a "
                           "class-1 line; of side 1, 300 ns in a class-1 line and 500 ns in a class-0 line"))
      << md;
  EXPECT_TRUE(contains(md, "Pairs across sides cost 400 ns one-way whichever class the line is in.")) << md;
  EXPECT_TRUE(contains(md, "| same-line | class 1 | far side (side 0) | 500.0 | 500.0–500.0 | 6 |")) << md;
  // meta.json: per placement, class and relation.
  const Json meta = Json::parse(file_text(run.dir / "meta.json"));
  EXPECT_EQ(meta.at("structure_by_class").size(), 2u * 2u * 3u);
  EXPECT_EQ(meta.at("structure").size(), 3u);  // as before: same-line, classes pooled
  for (const Json& m : meta.at("maps")) {
    EXPECT_TRUE(m.at("complete").get<bool>());
    EXPECT_EQ(m.at("completed_pairs"), 28);
  }
}

// One writer, one reader: what the run wrote is what `cumap summary` makes
// of meta.json, and meta.json holds the summary the run made, exactly.
TEST(RunSummary, TheRunAndCumapSummaryWriteTheSamePage) {
  FakeRun run;
  run.map({});
  const OutputMeta written = read_output_meta(run.dir);
  const RunSummary read_back = run_summary_from_json(written.meta, written.file.string());
  EXPECT_EQ(file_text(run.dir / "summary.md"), summary_markdown(read_back));
  EXPECT_EQ(read_back, run_summary(run.result));
}

TEST(UnitFiles, UnitsCsvJoinsPairsCsvByUnit) {
  FakeRun run;
  run.map({});
  std::istringstream units(file_text(run.dir / "units.csv"));
  std::string line;
  std::getline(units, line);
  EXPECT_EQ(line, "unit,device,unit_index,side,group,display_index,fit_term_ns");
  std::map<std::string, int> rows_of_unit;
  std::vector<std::string> display;
  while (std::getline(units, line)) {
    const std::string unit = line.substr(0, line.find(','));
    ++rows_of_unit[unit];
    // display_index: the column before fit_term_ns.
    const std::size_t last = line.rfind(',');
    const std::size_t before = line.rfind(',', last - 1);
    display.push_back(line.substr(before + 1, last - before - 1));
  }
  std::istringstream pairs(file_text(run.dir / "pairs.csv"));
  std::getline(pairs, line);
  std::set<std::string> in_pairs;
  while (std::getline(pairs, line)) {
    const std::size_t comma = line.find(',');
    in_pairs.insert(line.substr(0, comma));
    in_pairs.insert(line.substr(comma + 1, line.find(',', comma + 1) - comma - 1));
  }
  ASSERT_EQ(in_pairs.size(), 8u);
  for (const std::string& u : in_pairs) EXPECT_EQ(rows_of_unit[u], 1) << "unit " << u;
  // The rows are in display order, numbered from 0.
  for (std::size_t i = 0; i < display.size(); ++i) EXPECT_EQ(display[i], std::to_string(i));
}

TEST(UnitFiles, TopologyJsonHasTheShapeOfCumapTopologyJson) {
  FakeRun run;
  run.map({});
  const Json j = Json::parse(file_text(run.dir / "topology.json"));
  EXPECT_EQ(j, topology_file_json(run.result.topology, run.result.homes));
  EXPECT_EQ(j.at("home_classes"), 2);
  ASSERT_EQ(j.at("sides").size(), 2u);
  EXPECT_EQ(j.at("sides")[0].at("name"), "side0");
  EXPECT_EQ(j.at("sides")[0].at("units"), Json::array({0, 2, 4, 6}));
  EXPECT_TRUE(j.contains("groups") && j.contains("source"));
}

// Every pair timed out: nothing says "nan", and nothing says complete.
TEST(RunSummary, NoPairCompletedIsSaidEverywhere) {
  FakeRun run;
  test::FakeChip spec;
  spec.time_out = true;
  run.map(spec);
  EXPECT_TRUE(no_pair_completed(run.result));
  const std::string line = map_summary_line(run_summary(run.result), run.dir);
  EXPECT_TRUE(contains(line, "same-line: no pair completed")) << line;
  EXPECT_FALSE(std::regex_search(line, std::regex(R"(\bnan\b)", std::regex::icase))) << line;
  const Json meta = Json::parse(file_text(run.dir / "meta.json"));
  for (const Json& m : meta.at("maps")) {
    EXPECT_FALSE(m.at("complete").get<bool>());
    EXPECT_EQ(m.at("completed_pairs"), 0);
    EXPECT_EQ(m.at("timed_out_pairs").size(), 28u);
  }
  const std::string md = file_text(run.dir / "summary.md");
  EXPECT_TRUE(contains(md, "- No pair completed: every pair of the same-line and split-line maps timed out")) << md;
  EXPECT_TRUE(contains(md, "| same-line | 0 of 28 | – | – | – |")) << md;
  // report.html's script holds JavaScript's NaN for cells without a value;
  // what the page shows is checked in a browser (report_html_browser).
  for (const auto& e : fs::directory_iterator(run.dir)) {
    if (e.path().extension() == ".png" || e.path().extension() == ".html") continue;
    EXPECT_FALSE(std::regex_search(file_text(e.path()), std::regex(R"(\bnan\b)", std::regex::icase)))
        << e.path().filename();
  }
  EXPECT_TRUE(run_summary_from_json(meta).no_pair_completed());
}

// --cross-home on a chip of one home class: refused when home discovery
// ends, before any pair is measured.
TEST(RunSummary, CrossHomeWithOneClassMeasuresNothing) {
  test::FakeChip spec;
  spec.classes = 1;
  test::FakeChipBackend chip(spec);
  Options o = test::small_options();
  o.lines_per_class = 2;
  o.placements.push_back(Placement::CrossHome);
  o.cross_home = true;
  try {
    measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o);
    FAIL() << "a map of one class cannot place flags in two";
  } catch (const UsageError& e) {
    EXPECT_TRUE(contains(e.what(), "home discovery found one class")) << e.what();
  }
  EXPECT_GE(chip.probe_calls, 1);
  EXPECT_EQ(chip.measure_calls, 0);
  EXPECT_EQ(chip.pairs_measured, 0u);
}

}  // namespace
}  // namespace cumap
