// What a map across GPUs writes, from a run of the map engine over a fake of
// two chips joined by a link (no GPU, no binary): ids "g<gpu>.<sm>", the
// GPU x GPU table, homes per GPU, and the display by GPU, then side.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/run_summary.hpp"
#include "publish/output_set.hpp"
#include "report/map_outputs.hpp"
#include "report/read/meta_json.hpp"
#include "report/summary_formats.hpp"
#include "report/summary_json.hpp"
#include "report/summary_line.hpp"
#include "report/summary_md.hpp"
#include "run/map_run.hpp"
#include "fake_chip_backend.hpp"
#include "small_map.hpp"
#include "file_text.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

using test::file_text;

struct TwoChipRun {
  test::TempDir tmp;
  fs::path dir = tmp / "out";
  MapResult result;
};

test::FakeChip two_chips() {
  test::FakeChip spec;
  spec.devices = 2;
  spec.link_step_ns = 100.0;
  return spec;
}

// The steps run_map takes, over the fake.
void map_two_chips(TwoChipRun& run, const test::FakeChip& spec = two_chips()) {
  test::FakeChipBackend chip(spec);
  Options o = test::small_options();
  o.lines_per_class = 2;
  o.quiet = true;
  o.out_dir = run.dir;
  MapResult& r = run.result;
  r = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o);
  r.device.links = {{0, 1, "NV18", ""}};
  r.run.command_line = "test";
  OutputSet out(o.out_dir);
  write_map_outputs(r, out);
  out.publish();
}

TEST(OutputsAcrossGpus, EveryFileNamesUnitsByGpuAndSm) {
  TwoChipRun run;
  map_two_chips(run);
  const fs::path& d = run.dir;
  for (const char* f : {"matrix-same-line.csv", "matrix-split-line-home1.csv", "pairs.csv", "gpus.csv", "meta.json",
                        "homes.json", "homes.csv", "heatmap-homes-g0.png", "heatmap-homes-g1.png", "heatmap.png"})
    EXPECT_TRUE(fs::exists(d / f)) << f;
  EXPECT_FALSE(fs::exists(d / "heatmap-homes.png")) << "one picture per GPU instead";

  const std::string matrix = file_text(d / "matrix-same-line.csv");
  EXPECT_EQ(matrix.rfind("unit,g0.0,", 0), 0u) << matrix.substr(0, 80);
  EXPECT_NE(matrix.find(",g1.7"), std::string::npos);

  // The display: GPU, then side, then id.
  const MapResult& r = run.result;
  ASSERT_EQ(r.display_order.size(), 16u);
  EXPECT_EQ(r.display_order.front(), 0);
  EXPECT_EQ(device_of_id(r.display_order[8]), 1);
  ASSERT_FALSE(r.display_groups.groups.empty());
  EXPECT_EQ(r.display_groups.groups.front().name.rfind("g0 S0", 0), 0u) << r.display_groups.groups.front().name;
  EXPECT_EQ(r.display_groups.groups.back().name.rfind("g1 S1", 0), 0u) << r.display_groups.groups.back().name;

  const std::string gpus = file_text(d / "gpus.csv");
  EXPECT_EQ(gpus.substr(0, gpus.find('\n')),
            "placement,gpu_a,gpu_b,flags_on,link,cells,oneway_ns_median,p05_ns,p95_ns,min_ns,max_ns");
  EXPECT_NE(gpus.find("same-line,0,0,g0,same GPU,28,"), std::string::npos) << gpus;
  EXPECT_NE(gpus.find("same-line,0,1,both,NV18,64,1150.000,"), std::string::npos) << gpus;
  EXPECT_NE(gpus.find("same-line,0,1,g0,NV18,64,1100.000,"), std::string::npos) << gpus;
  EXPECT_NE(gpus.find("same-line,0,1,g1,NV18,64,1200.000,"), std::string::npos) << gpus;

  const nlohmann::json meta = nlohmann::json::parse(file_text(d / "meta.json"));
  ASSERT_TRUE(meta.contains("gpus"));
  EXPECT_EQ(meta["homes"]["devices"].size(), 2u);
  EXPECT_EQ(meta["homes"]["sides"][0]["name"], "g0 side0");
  const nlohmann::json homes = nlohmann::json::parse(file_text(d / "homes.json"));
  ASSERT_EQ(homes["devices"].size(), 2u);
  EXPECT_EQ(homes["devices"][1]["device"], 1);
  EXPECT_EQ(homes["devices"][1]["units"][0], 100000);

  const std::string pairs = file_text(d / "pairs.csv");
  EXPECT_NE(pairs.find("\ng0.0,g1."), std::string::npos);
}

// What the outputs say about the link, over a fake whose link costs 40 ns
// more for a unit of side 1 reaching across and 20 ns more for a line of
// class 1 (into GPU 1's memory 100 ns more): meta.json keeps the rows,
// summary.md and report.html explain them, `cumap summary DIR` says the
// same, the console's last line names the median across GPUs.
TEST(OutputsAcrossGpus, SummaryReportAndConsoleExplainTheMapAcrossGpus) {
  TwoChipRun run;
  test::FakeChip spec = two_chips();
  spec.link_side_step_ns = 40.0;
  spec.link_class_step_ns = 20.0;
  map_two_chips(run, spec);
  const fs::path& d = run.dir;

  const nlohmann::json meta = nlohmann::json::parse(file_text(d / "meta.json"));
  ASSERT_TRUE(meta.contains("cross_gpu_structure"));
  ASSERT_EQ(meta["cross_gpu_structure"].size(), 32u) << "16 rows per placement";
  for (const nlohmann::json& row : meta["cross_gpu_structure"]) {
    if (row["placement"] != "same-line") continue;
    const int flags_on = row["flags_on"] == "g0" ? 0 : 1;
    const int beside = flags_on == 0 ? row["side_a"].get<int>() : row["side_b"].get<int>();
    const int across = flags_on == 0 ? row["side_b"].get<int>() : row["side_a"].get<int>();
    const int cls = row["home_class"];
    EXPECT_DOUBLE_EQ(row["median_ns"].get<double>(),
                     (beside == cls ? 150.0 : 250.0) + 900.0 + 100.0 * flags_on + 40.0 * across + 20.0 * cls)
        << row.dump();
    EXPECT_EQ(row["cells"], 16u);
  }

  const std::string md = file_text(d / "summary.md");
  const std::size_t section = md.find("## Across GPUs\n");
  ASSERT_NE(section, std::string::npos) << md;
  const std::string across = md.substr(section, md.find("## Timed-out pairs") - section);
  EXPECT_NE(across.find("- A signal between GPUs (g0 – g1 over NV18) costs "), std::string::npos) << across;
  EXPECT_NE(across.find("the side of the unit on the GPU without the flag (side-0 units 40 ns less than side-1 "
                        "units"),
            std::string::npos)
      << across;
  EXPECT_NE(across.find("whether the unit beside the flag is on the side near the line's home (near-side units "
                        "100 ns less than far-side units"),
            std::string::npos)
      << across;
  EXPECT_NE(across.find("which GPU holds the flag (flags on g0 100 ns less than flags on g1"), std::string::npos)
      << across;
  EXPECT_NE(across.find("the home class of the flag's line (class-0 lines 20 ns less than class-1 lines"),
            std::string::npos)
      << across;
  EXPECT_NE(across.find("Cheapest: a flag on g0 in a class-0 line, polled on its GPU by units of the side near its "
                        "home, reached across from side-0 units of the other GPU, 1050 ns one-way; dearest: a flag on "
                        "g1 in a class-1 line, polled on its GPU by units of the side far from its home, reached "
                        "across from side-1 units of the other GPU, 1310 ns"),
            std::string::npos)
      << across;
  EXPECT_NE(across.find("| same-line | g0 – g1 | both | NV18 | "), std::string::npos) << across;
  EXPECT_NE(across.find("| same-line | g0 – g1 | g1 | 1 | 1 | 0 | 1310.0 | "), std::string::npos) << across;

  // `cumap summary DIR`: the same page from the meta.json on disk.
  const RunSummary again = run_summary_from_json(read_output_meta(d).meta);
  EXPECT_EQ(summary_markdown(again), md);
  EXPECT_EQ(again, run_summary(run.result)) << "meta.json holds the run's summary exactly";
  EXPECT_NE(summary_csv(again).find("same-line,1,across-gpus,,"), std::string::npos);
  EXPECT_EQ(summary_fields_json(again)["across_gpus"]["structure"].size(), 32u);

  const std::string html = file_text(d / "report.html");
  EXPECT_NE(html.find("<section id=\"across-section\">"), std::string::npos);
  ASSERT_FALSE(again.across_gpu_findings.empty());
  for (const std::string& finding : again.across_gpu_findings) EXPECT_NE(html.find(finding), std::string::npos) << finding;

  const std::string line = map_summary_line(run_summary(run.result), run.dir);
  EXPECT_NE(line.find("; same-line across GPUs one-way median g0-g1 "), std::string::npos) << line;
  EXPECT_NE(line.find(" ns over NV18 (inside one GPU 400.0 ns)"), std::string::npos) << line;
}

// A map on one chip says nothing of GPUs.
TEST(OutputsAcrossGpus, OneChipHasNoAcrossGpusSection) {
  test::TempDir tmp;
  test::FakeChipBackend chip(test::FakeChip{});
  Options o = test::small_options();
  o.quiet = true;
  o.out_dir = tmp / "out";
  MapResult r = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o);
  OutputSet out(o.out_dir);
  const RunSummary summary = write_map_outputs(r, out);
  out.publish();
  EXPECT_EQ(file_text(o.out_dir / "summary.md").find("Across GPUs"), std::string::npos);
  EXPECT_FALSE(nlohmann::json::parse(file_text(o.out_dir / "meta.json")).contains("cross_gpu_structure"));
  EXPECT_EQ(map_summary_line(summary, o.out_dir).find("across GPUs"), std::string::npos);
}

}  // namespace
}  // namespace cumap
