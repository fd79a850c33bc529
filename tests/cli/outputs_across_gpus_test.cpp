// What a map across GPUs writes, from a run of the map engine over a fake of
// two chips joined by a link (no GPU, no binary): ids "g<gpu>.<sm>", the
// GPU x GPU table, homes per GPU, and the display by GPU, then side.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run/map_run.hpp"
#include "report/map_outputs.hpp"
#include "report/output_set.hpp"
#include "fake_chip_backend.hpp"
#include "small_map.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

struct TwoChipRun {
  test::TempDir tmp;
  fs::path dir = tmp / "out";
  MapResult result;
};

// The steps run_map takes, over the fake.
void map_two_chips(TwoChipRun& run) {
  test::FakeChip spec;
  spec.devices = 2;
  spec.link_step_ns = 100.0;
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

  const std::string matrix = read(d / "matrix-same-line.csv");
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

  const std::string gpus = read(d / "gpus.csv");
  EXPECT_EQ(gpus.substr(0, gpus.find('\n')),
            "placement,gpu_a,gpu_b,flags_on,link,cells,oneway_ns_median,p05_ns,p95_ns,min_ns,max_ns");
  EXPECT_NE(gpus.find("same-line,0,0,g0,same GPU,28,"), std::string::npos) << gpus;
  EXPECT_NE(gpus.find("same-line,0,1,both,NV18,64,1150.000,"), std::string::npos) << gpus;
  EXPECT_NE(gpus.find("same-line,0,1,g0,NV18,64,1100.000,"), std::string::npos) << gpus;
  EXPECT_NE(gpus.find("same-line,0,1,g1,NV18,64,1200.000,"), std::string::npos) << gpus;

  const nlohmann::json meta = nlohmann::json::parse(read(d / "meta.json"));
  ASSERT_TRUE(meta.contains("gpus"));
  EXPECT_EQ(meta["homes"]["devices"].size(), 2u);
  EXPECT_EQ(meta["homes"]["sides"][0]["name"], "g0 side0");
  const nlohmann::json homes = nlohmann::json::parse(read(d / "homes.json"));
  ASSERT_EQ(homes["devices"].size(), 2u);
  EXPECT_EQ(homes["devices"][1]["device"], 1);
  EXPECT_EQ(homes["devices"][1]["units"][0], 100000);

  const std::string pairs = read(d / "pairs.csv");
  EXPECT_NE(pairs.find("\ng0.0,g1."), std::string::npos);
}

}  // namespace
}  // namespace cumap
