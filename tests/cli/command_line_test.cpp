// The parser alone (no binary, no backend): what valid new options put into Options.
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "cli/command_line.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {
namespace {

Command parse(std::vector<std::string> args) {
  args.insert(args.begin(), "cumap");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

Options map_options(const std::vector<std::string>& args) {
  const Command c = parse(args);
  EXPECT_TRUE(std::holds_alternative<MapCommand>(c));
  return std::get<MapCommand>(c).options;
}

TEST(CommandLine, NewMapOptionsReachOptions) {
  const Options o = map_options({"--schedule", "concurrent", "--concurrency", "8", "--check-pairs", "16", "--via",
                                 "dsm", "--home-lines", "64", "--flag-offset", "4096", "--rotating-count", "8",
                                 "--resume", "earlier"});
  EXPECT_EQ(o.schedule, ScheduleKind::Concurrent);
  EXPECT_EQ(o.concurrency, 8);
  EXPECT_EQ(o.check_pairs, 16);
  EXPECT_EQ(o.via, Path::Dsm);
  EXPECT_EQ(o.home_lines, 64);
  EXPECT_EQ(o.flag_offset, 4096u);
  EXPECT_EQ(o.lines_per_class, 8);
  EXPECT_EQ(o.resume_dir, "earlier");
  EXPECT_FALSE(map_options({}).lines_per_class.has_value()) << "left out: the backend's default";
}

TEST(CommandLine, CrossHomeIsAddedToTheChosenPlacements) {
  const Options both = map_options({"--cross-home"});
  EXPECT_EQ(both.placements,
            (std::vector<Placement>{Placement::SameLine, Placement::SplitLine, Placement::CrossHome}));
  EXPECT_TRUE(both.cross_home);
  const Options split = map_options({"--split-line", "--cross-home"});
  EXPECT_EQ(split.placements, (std::vector<Placement>{Placement::SplitLine, Placement::CrossHome}));
  EXPECT_FALSE(map_options({}).cross_home);
}

TEST(CommandLine, LimitsAreInclusive) {
  EXPECT_EQ(map_options({"--flag-offset", "1073741824"}).flag_offset, 1073741824u);
  EXPECT_EQ(map_options({"--timeout-ms", "3600000"}).timeout_ms, 3600000.0);
  EXPECT_THROW(parse({"--timeout-ms", "3600000.5"}), UsageError);
  EXPECT_THROW(parse({"--flag-offset", "+128"}), UsageError);
}

TEST(CommandLine, DeviceZeroOnCpuAndUnitOnHipAreFine) {
  EXPECT_EQ(map_options({"--backend", "cpu", "--device", "0"}).device, 0);
  EXPECT_EQ(map_options({"--backend", "hip", "--unit", "wgp"}).hip_unit, HipUnit::Wgp);
  EXPECT_THROW(parse({"--backend", "cuda", "--unit", "cu"}), UsageError);
}

TEST(CommandLine, HomesTakesTheHomeDiscoveryOptions) {
  const Command c = parse({"homes", "--backend", "cpu", "--units", "0-1", "--home-lines", "64", "--home-chain", "8",
                           "--flag-offset", "4096", "--out", "H", "--quiet"});
  ASSERT_TRUE(std::holds_alternative<HomesCommand>(c));
  const HomesCommand& homes = std::get<HomesCommand>(c);
  EXPECT_EQ(homes.options.backend, BackendKind::Cpu);
  EXPECT_EQ(homes.options.units_spec, "0-1");
  EXPECT_EQ(homes.options.home_lines, 64);
  EXPECT_EQ(homes.options.home_chain, 8);
  EXPECT_EQ(homes.options.flag_offset, 4096u);
  EXPECT_EQ(homes.options.out_dir, "H");
  EXPECT_TRUE(homes.options.quiet);
  EXPECT_EQ(homes.command_line.rfind("cumap homes ", 0), 0u) << homes.command_line;
}

TEST(CommandLine, HomesRejectsBadValuesAndMapOptions) {
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"homes", "--home-lines", "0"}, {"homes", "--home-chain", "0"},
        {"homes", "--flag-offset", "64"}, {"homes", "--units", " "}, {"homes", "--iters", "5"},
        {"--samples", "2", "homes"}})
    EXPECT_THROW(parse(bad), UsageError) << bad.back();
}

}  // namespace
}  // namespace cumap::cli
