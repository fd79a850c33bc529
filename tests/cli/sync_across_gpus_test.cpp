// `cumap barrier --devices` and `cumap contention --devices` without a GPU:
// the parser takes the GPUs, and the files of a sweep over a fake of two
// chips (written as the command writes them) read back as `cumap summary
// DIR` reads them.
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cumap/error.hpp"
#include "fake_chip_backend.hpp"
#include "publish/output_set.hpp"
#include "report/read/meta_json.hpp"
#include "report/summary_json.hpp"
#include "report/sync_outputs.hpp"
#include "report/sync_summary_md.hpp"
#include "run/sync_run.hpp"
#include "small_map.hpp"
#include "file_text.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

cli::Command parse(std::vector<std::string> args) {
  args.insert(args.begin(), "cumap");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return cli::parse_command_line(static_cast<int>(argv.size()), argv.data());
}

TEST(SyncCommandAcrossGpus, BarrierAndContentionTakeTheGpusOfDevices) {
  for (const char* command : {"barrier", "contention"}) {
    const cli::Command c = parse({command, "--backend", "cuda", "--devices", "0,1"});
    ASSERT_TRUE(std::holds_alternative<cli::SyncCommand>(c)) << command;
    const SyncOptions& o = std::get<cli::SyncCommand>(c).options;
    EXPECT_EQ(o.common.devices_spec, "0,1");
    EXPECT_EQ(o.contention, std::string(command) == "contention");
    EXPECT_EQ(to_json(o).at("devices"), "0,1") << "meta.json records the GPUs";
  }
  EXPECT_FALSE(to_json(std::get<cli::SyncCommand>(parse({"barrier"})).options).contains("devices"))
      << "a run of one GPU records what it always did";
  EXPECT_THROW(parse({"barrier", "--device", "1", "--devices", "0,1"}), UsageError);
  EXPECT_THROW(parse({"barrier", "--devices", ""}), UsageError);
}

using test::file_text;

TEST(SyncCommandAcrossGpus, TheFilesOfASweepAcrossTwoChipsReadBackAsCumapSummaryReadsThem) {
  test::TempDir tmp;
  const fs::path dir = tmp / "out";
  test::FakeChip spec;
  spec.devices = 2;
  spec.link_step_ns = 100.0;
  test::FakeChipBackend chip(spec);
  SyncOptions o;
  o.common = test::small_options();
  o.common.home_lines = 64;
  o.common.devices_spec = "0,1";
  o.common.out_dir = dir;
  o.episodes = 10;
  o.launches = 2;
  SyncResult r = measure_sync_run(chip, chip.units(), o);
  r.discovery.run.command_line = "cumap barrier --devices 0,1";
  OutputSet out(dir);
  write_sync_outputs(r, out);
  out.publish();

  const nlohmann::json meta = nlohmann::json::parse(file_text(dir / "meta.json"));
  EXPECT_EQ(meta.at("options").at("devices"), "0,1");
  EXPECT_EQ(file_text(dir / "barrier.csv").rfind("implementation,k,set,counter_home,counter_gpu,", 0), 0u);
  const SyncSummary s = read_sync_summary(read_output_meta(dir));
  EXPECT_TRUE(s.across_gpus);
  ASSERT_FALSE(s.across.empty());
  EXPECT_NE(s.across.front().find("two-level by GPU is cheapest"), std::string::npos) << s.across.front();
  const std::string md = file_text(dir / "summary.md");
  EXPECT_NE(md.find("## Across GPUs"), std::string::npos) << md;
  EXPECT_EQ(md, sync_summary_markdown(s)) << "the run's page and `cumap summary DIR` say the same";
  EXPECT_NE(file_text(dir / "report.html").find("<h2>Across GPUs</h2>"), std::string::npos);
}

}  // namespace
}  // namespace cumap
