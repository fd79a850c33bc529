// `cumap homes` end to end on the CPU backend: the files it writes, and bad
// input that must exit 2 and leave nothing behind.
#include <sys/resource.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sanitizer_build.hpp"
#include "cli_harness.hpp"

namespace cumap::test {
namespace homes_command_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

namespace fs = std::filesystem;

// `cumap homes` with `extra`, on the cpu backend over 16 lines unless
// `extra` says otherwise: a run (or a wrongly accepted bad input) takes a moment.
std::vector<std::string> homes_args(const std::vector<std::string>& extra) {
  std::vector<std::string> args{"homes"};
  args.insert(args.end(), extra.begin(), extra.end());
  for (const auto& [flag, value] : {std::pair{"--backend", "cpu"}, std::pair{"--home-lines", "16"}})
    if (std::find(extra.begin(), extra.end(), flag) == extra.end()) args.insert(args.end(), {flag, value});
  return args;
}

TEST(Homes, WritesTheHomeFilesAndOneSummaryLine) {
  TempDir cwd;
  const RunResult r = run_cumap(homes_args({"--home-chain", "8", "--out", "H"}), cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path out = cwd.path() / "H";
  EXPECT_EQ(file_names(out), (std::set<std::string>{"homes.csv", "homes.json", "heatmap-homes.png", "meta.json"}));
  EXPECT_TRUE(has_png_signature(out / "heatmap-homes.png"));

  const auto homes = nlohmann::json::parse(read_text(out / "homes.json"));
  const std::size_t units = homes.at("units").size();
  ASSERT_GE(units, 1u);
  EXPECT_EQ(homes.at("line_class").size(), 16u);
  // homes.csv: a header and one row per unit and line.
  const std::string csv = read_text(out / "homes.csv");
  EXPECT_EQ(csv.rfind("unit,line_offset,home_class,cycles,ns\n", 0), 0u);
  EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), 1 + units * 16);

  const auto meta = nlohmann::json::parse(read_text(out / "meta.json"));
  EXPECT_EQ(meta.at("backend"), "cpu");
  EXPECT_EQ(meta.at("options").at("home_lines"), 16);
  EXPECT_EQ(meta.at("options").at("home_chain"), 8);
  EXPECT_FALSE(meta.at("options").contains("iters")) << "map-only options do not belong in a homes meta.json";
  EXPECT_FALSE(meta.contains("maps"));
  EXPECT_EQ(meta.at("homes").at("class_count"), homes.at("class_count"));
  EXPECT_EQ(meta.at("homes").at("lines_probed"), 16);
  EXPECT_EQ(meta.at("display_order").size(), units);
  EXPECT_NE(meta.at("command_line").get<std::string>().find("homes"), std::string::npos);

  // One line: classes, lines per class, near latency, sides, where the files went.
  ASSERT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  for (const char* word : {"home class(es)", "class 0: ", " lines, near ", " ns", "sides: side0 ", "written to H"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word << " missing from: " << r.out;
}

TEST(Homes, QuietPrintsNothingAndAFlagOffsetIsRecorded) {
  TempDir cwd;
  const RunResult r = run_cumap(homes_args({"--flag-offset", "4096", "--units", "0", "--quiet", "--out", "H"}),
                                cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  const auto homes = nlohmann::json::parse(read_text(cwd.path() / "H" / "homes.json"));
  EXPECT_EQ(homes.at("arena").at("offset_bytes"), 4096);
  EXPECT_EQ(homes.at("units"), nlohmann::json::array({0}));
}

struct BadInput {
  std::string name;
  std::vector<std::string> args;
  std::string message_mentions;  // lowercase
};
void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name; }

class HomesUsageErrors : public ::testing::TestWithParam<BadInput> {};

TEST_P(HomesUsageErrors, FreshOutDirIsNeverCreated) {
  const BadInput& c = GetParam();
  TempDir cwd;
  std::vector<std::string> args = c.args;
  args.insert(args.end(), {"--out", "out"});
  expect_one_usage_line(run_cumap(homes_args(args), cwd.path()), c.message_mentions);
  EXPECT_TRUE(snapshot(cwd.path()).empty()) << "bad input wrote files";
}

TEST_P(HomesUsageErrors, ExistingOutDirIsLeftUnchanged) {
  const BadInput& c = GetParam();
  TempDir cwd;
  fs::create_directory(cwd.path() / "out");
  write_text(cwd.path() / "out" / "homes.csv", "unit,line_offset,home_class,cycles,ns\n");
  const auto before = snapshot(cwd.path());
  std::vector<std::string> args = c.args;
  args.insert(args.end(), {"--out", "out"});
  expect_one_usage_line(run_cumap(homes_args(args), cwd.path()), c.message_mentions);
  EXPECT_EQ(snapshot(cwd.path()), before);
}

INSTANTIATE_TEST_SUITE_P(
    BadFlags, HomesUsageErrors,
    ::testing::Values(BadInput{"home_lines_zero", {"--home-lines", "0"}, "--home-lines"},
                      BadInput{"home_lines_negative", {"--home-lines", "-4"}, "--home-lines"},
                      BadInput{"home_lines_too_many", {"--home-lines", "65537"}, "--home-lines"},
                      BadInput{"home_lines_not_a_number", {"--home-lines", "many"}, "--home-lines"},
                      BadInput{"home_chain_zero", {"--home-chain", "0"}, "--home-chain"},
                      BadInput{"home_chain_too_long", {"--home-chain", "4097"}, "--home-chain"},
                      BadInput{"flag_offset_unaligned", {"--flag-offset", "100"}, "--flag-offset"},
                      BadInput{"flag_offset_negative", {"--flag-offset", "-128"}, "--flag-offset"},
                      BadInput{"flag_offset_over_1gib", {"--flag-offset", "1073741952"}, "--flag-offset"},
                      BadInput{"flag_offset_not_a_number", {"--flag-offset", "4k"}, "--flag-offset"},
                      BadInput{"units_empty", {"--units", ""}, "--units"},
                      BadInput{"units_out_of_range", {"--units", "0-999"}, "--units"},
                      BadInput{"backend_unknown", {"--backend", "nosuch"}, "nosuch"},
                      BadInput{"device_99_on_cpu", {"--device", "99"}, "--device"},
                      // The map's options do not apply to home discovery.
                      BadInput{"map_only_option", {"--iters", "5"}, "--iters"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

TEST(HomesUsageErrors, MapOptionsBeforeTheSubcommandAreRejected) {
  TempDir cwd;
  const RunResult r = run_cumap({"--iters", "5", "homes", "--backend", "cpu", "--out", "out"}, cwd.path());
  expect_one_usage_line(r, "--iters");
  EXPECT_TRUE(snapshot(cwd.path()).empty());
}

// --home-lines 65536 is in the documented range, but classifying the lines
// took the distance of every two of them: 8192 lines peaked at 520 MB, 32768
// at 8.2 GB (111 s), 65536 ended in std::bad_alloc. The tree is now built
// from at most 4096 lines and the others join the nearest class.
TEST(Homes, ManyHomeLinesKeepMemoryLinear) {
  TempDir cwd;
  const auto started = std::chrono::steady_clock::now();
  const RunResult r = run_cumap(
      homes_args({"--units", "0-1", "--home-lines", "16384", "--home-stride", "128", "--home-chain", "4", "--quiet",
                  "--out", "H"}),
      cwd.path());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto homes = nlohmann::json::parse(read_text(cwd.path() / "H" / "homes.json"));
  EXPECT_EQ(homes.at("line_class").size(), 16384u);
  if (CUMAP_ASAN_BUILD) GTEST_SKIP() << "resident memory and time are not comparable under AddressSanitizer";
  // The largest child so far (this test runs alone in its process): cumap.
  rusage children{};
  getrusage(RUSAGE_CHILDREN, &children);
  const long peak_mib = children.ru_maxrss / 1024;
  // 16384 lines' distances alone were 2 GiB; the sample's are 128 MiB.
  EXPECT_LT(peak_mib, 400) << "16384 home lines peaked at " << peak_mib << " MiB";
  EXPECT_LT(seconds, 120.0);
}

}  // namespace
}  // namespace cumap::test
