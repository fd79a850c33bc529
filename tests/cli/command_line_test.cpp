// The parser alone (no binary, no backend): what valid new options put into Options.
#include <map>
#include <set>
#include <string>
#include <utility>
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
                                 "dsm", "--home-lines", "64", "--flag-offset", "4096", "--lines-per-class", "8",
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

// CLI11 alone read "0x10" as 16, "010" as 8, " 64" as 64, hex floats, and
// an empty value as 0: every numeric option is decimal only.
TEST(CommandLine, NumbersAreDecimalOnly) {
  for (const auto& [flag, value] : std::vector<std::pair<std::string, std::string>>{
           {"--iters", "0x10"},      {"--samples", "0b11"},   {"--warmup", "0o7"},
           {"--timeout-ms", "0x10"}, {"--timeout-ms", "0x1p3"}, {"--home-lines", " 64"},
           {"--warmup", ""},         {"--samples", ""},        {"--timeout-ms", ""},
           {"--iters", "+5"},        {"--check-pairs", "1e3"}, {"--max-streams", "0x4"},
           {"--concurrency", "4k"},  {"--lines-per-class", "1.0"}, {"--device", "0x0"}}) {
    SCOPED_TRACE(flag + " '" + value + "'");
    try {
      parse({flag, value});
      ADD_FAILURE() << "accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(parse({"check-coherence", "--reader", "0x1"}), UsageError);
  EXPECT_THROW(parse({"check-coherence", "--window-ms", "0x1"}), UsageError);
  EXPECT_THROW(parse({"topology", "--device", "0x0"}), UsageError);
  // Leading zeros are decimal too, not octal.
  EXPECT_EQ(map_options({"--iters", "010"}).iters, 10);
  EXPECT_EQ(map_options({"--samples", "007"}).samples, 7);
  EXPECT_EQ(map_options({"--timeout-ms", "1e3"}).timeout_ms, 1000.0);
  EXPECT_EQ(map_options({"--timeout-ms", "2.5"}).timeout_ms, 2.5);
}

// --resume DIR takes the earlier run's options; the parser says which ones
// the user typed (by flag, with the key meta.json records them under).
TEST(CommandLine, ResumeKnowsWhichOptionsWereTyped) {
  const Command c = parse({"--resume", "D", "--iters", "5", "--quiet", "--same-line"});
  ASSERT_TRUE(std::holds_alternative<MapCommand>(c));
  const MapCommand& map = std::get<MapCommand>(c);
  EXPECT_EQ(map.typed, (std::map<std::string, std::string>{{"--iters", "iters"}, {"--same-line", "placements"}}));
  EXPECT_EQ(map.options.resume_dir, "D");
}

TEST(CommandLine, EveryRecordedOptionIsKnownByItsFlag) {
  const Command c = parse({"--resume", "D", "--backend", "auto", "--unit", "cu", "--devices", "0", "--units", "0-1",
                           "--home-lines", "64", "--home-chain", "8", "--home-stride", "4224", "--home-serial", "--flag-offset", "0",
                           "--flag-on", "both", "--same-line", "--split-line", "--cross-home", "--iters", "5",
                           "--samples", "1", "--warmup", "1", "--timeout-ms", "100", "--ordered", "--schedule",
                           "serial", "--concurrency", "1", "--check-pairs", "1", "--via", "global",
                           "--no-line-correction", "--flush-cache", "--lines-per-class", "1", "--cross-lines", "1",
                           "--cross-samples", "1", "--cross-warmup", "0",
                           "--l2-persist", "--probe",
                           "cas", "--order", "index", "--colormap", "viridis"});
  ASSERT_TRUE(std::holds_alternative<MapCommand>(c));
  std::set<std::string> keys;
  for (const auto& [flag, key] : std::get<MapCommand>(c).typed) keys.insert(key);
  keys.insert("device");  // --device, which --devices excludes
  const nlohmann::json recorded = to_json(Options{});
  for (const auto& [key, value] : recorded.items()) {
    // Where, how loudly and which files; a limit no flag sets; cross_home,
    // which follows placements (--cross-home is compared as the placements
    // it makes).
    if (key == "out_dir" || key == "quiet" || key == "pairs_csv" || key == "check_max_rel_diff" ||
        key == "cross_home")
      continue;
    EXPECT_TRUE(keys.contains(key)) << key << " is recorded but no typed flag maps to it";
  }
}

TEST(CommandLine, ResumeNamesADirectoryAndWritesOnlyThere) {
  EXPECT_THROW(parse({"--resume", ""}), UsageError);  // an unset shell variable
  EXPECT_THROW(parse({"--resume", "D", "--out", "E"}), UsageError);
  EXPECT_EQ(map_options({"--resume", "D", "--out", "./D/"}).resume_dir, "D");
  // Checks that need the earlier run's options wait for them.
  EXPECT_NO_THROW(parse({"--resume", "D", "--lines-per-class", "1024"}));
}

// --rotating-count is --lines-per-class by another name: the same value,
// refused alike, compared by --resume under the same flag and key.
TEST(CommandLine, RotatingCountIsLinesPerClass) {
  EXPECT_EQ(map_options({"--rotating-count", "8"}).lines_per_class, 8);
  const Command c = parse({"--resume", "D", "--rotating-count", "8"});
  ASSERT_TRUE(std::holds_alternative<MapCommand>(c));
  EXPECT_EQ(std::get<MapCommand>(c).typed,
            (std::map<std::string, std::string>{{"--lines-per-class", "lines_per_class"}}));
  for (const std::string flag : {"--rotating-count", "--lines-per-class"}) {
    try {
      parse({flag, "0"});
      ADD_FAILURE() << flag << " 0 accepted";
    } catch (const UsageError& e) {
      EXPECT_STREQ(e.what(), "--lines-per-class must be at least 1 (got 0); leave it out for the backend's choice");
    }
  }
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
