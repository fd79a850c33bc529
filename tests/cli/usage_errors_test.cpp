// Bad input to the map command: exit 2, one line on stderr, nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_harness.hpp"

namespace cumap::test {
namespace {

namespace fs = std::filesystem;

struct BadInput {
  std::string name;
  std::vector<std::string> args;
  std::string message_mentions;  // lowercase; the line must name what was wrong
};
// Keeps gtest (and the CTest names it discovers) from dumping the struct's bytes.
void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name; }

// Appends a cheap, CPU-only run's flags that the case does not set itself, so
// that a wrongly accepted input finishes in a moment instead of hanging.
std::vector<std::string> with_cheap_defaults(std::vector<std::string> args) {
  const std::vector<std::pair<std::string, std::string>> defaults{
      {"--backend", "cpu"}, {"--iters", "5"}, {"--samples", "1"}, {"--warmup", "1"}};
  for (const auto& [flag, value] : defaults)
    if (std::find(args.begin(), args.end(), flag) == args.end()) args.insert(args.end(), {flag, value});
  return args;
}

// Whether `cumap --list-devices` reports a device for `kind`: its lines read
// "<kind> device N: ..." or "<kind> no device: ...".
bool backend_has_device(const std::string& kind) {
  TempDir cwd;
  std::istringstream lines(run_cumap({"--list-devices"}, cwd.path()).out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(kind + " ", 0) != 0) continue;
    const auto rest = line.find_first_not_of(' ', kind.size());
    if (rest != std::string::npos && line.compare(rest, 7, "device ") == 0) return true;
  }
  return false;
}

class UsageErrors : public ::testing::TestWithParam<BadInput> {};

TEST_P(UsageErrors, FreshOutDirIsNeverCreated) {
  const BadInput& c = GetParam();
  TempDir cwd;
  std::vector<std::string> args = c.args;
  args.insert(args.end(), {"--out", "out"});
  const RunResult r = run_cumap(with_cheap_defaults(args), cwd.path());
  expect_one_usage_line(r, c.message_mentions);
  EXPECT_FALSE(fs::exists(cwd.path() / "out"));
  EXPECT_TRUE(snapshot(cwd.path()).empty()) << "something was written beside the out dir";
}

TEST_P(UsageErrors, ExistingOutDirIsLeftUnchanged) {
  const BadInput& c = GetParam();
  TempDir cwd;
  fs::create_directory(cwd.path() / "out");
  write_text(cwd.path() / "out" / "earlier-run.csv", "unit,0,1\n0,,1\n1,1,\n");
  const auto before = snapshot(cwd.path());
  std::vector<std::string> args = c.args;
  args.insert(args.end(), {"--out", "out"});
  const RunResult r = run_cumap(with_cheap_defaults(args), cwd.path());
  expect_one_usage_line(r, c.message_mentions);
  EXPECT_EQ(snapshot(cwd.path()), before);
}

INSTANTIATE_TEST_SUITE_P(
    BadFlags, UsageErrors,
    ::testing::Values(BadInput{"unknown_flag", {"--no-such-flag"}, "--no-such-flag"},
                      BadInput{"units_open_range", {"--units", "0-"}, "--units"},
                      BadInput{"units_not_a_number", {"--units", "a"}, "--units"},
                      BadInput{"units_reversed_range", {"--units", "3-1"}, "--units"},
                      BadInput{"units_empty_entry", {"--units", "1,,2"}, "--units"},
                      BadInput{"units_out_of_range", {"--units", "0-999"}, "--units"},
                      BadInput{"units_single", {"--units", "0"}, "two units"},
                      BadInput{"iters_zero", {"--iters", "0"}, "--iters"},
                      BadInput{"samples_zero", {"--samples", "0"}, "--samples"},
                      BadInput{"lines_per_class_negative", {"--lines-per-class", "-1"}, "--lines-per-class"},
                      // 0 once meant "the backend's choice"; now leaving it out does, and 0 is refused.
                      BadInput{"lines_per_class_zero", {"--lines-per-class", "0"}, "at least 1"},
                      // 10^8 copies of two pages each do not fit in any machine's memory.
                      BadInput{"lines_per_class_too_large", {"--lines-per-class", "100000000"}, "--lines-per-class"},
                      // Its other name is refused alike.
                      BadInput{"rotating_count_zero", {"--rotating-count", "0"}, "--lines-per-class must be at least 1"},
                      BadInput{"l2_persist_on_cpu", {"--l2-persist"}, "--l2-persist"},
                      BadInput{"timeout_zero", {"--timeout-ms", "0"}, "--timeout-ms"},
                      BadInput{"backend_unknown", {"--backend", "nosuch"}, "nosuch"},
                      BadInput{"probe_unknown", {"--probe", "nosuch"}, "nosuch"},
                      BadInput{"colormap_unknown", {"--colormap", "nosuch"}, "nosuch"},
                      // Huge budgets overflow chrono arithmetic; an hour is the most.
                      BadInput{"timeout_inf", {"--timeout-ms", "inf"}, "--timeout-ms"},
                      BadInput{"timeout_nan", {"--timeout-ms", "nan"}, "--timeout-ms"},
                      BadInput{"timeout_1e16", {"--timeout-ms", "1e16"}, "--timeout-ms"},
                      BadInput{"timeout_over_an_hour", {"--timeout-ms", "3600001"}, "--timeout-ms"},
                      BadInput{"timeout_negative", {"--timeout-ms", "-5"}, "--timeout-ms"},
                      // Options the chosen backend would silently ignore.
                      BadInput{"unit_on_cpu", {"--unit", "wgp"}, "--unit"},
                      BadInput{"device_99_on_cpu", {"--device", "99"}, "--device"},
                      BadInput{"device_negative", {"--device", "-1"}, "--device"},
                      BadInput{"units_empty", {"--units", ""}, "--units"},
                      BadInput{"units_blank", {"--units", " "}, "--units"},
                      // Names are lowercase only, all alike.
                      BadInput{"backend_uppercase", {"--backend", "CPU"}, "cpu"},
                      BadInput{"colormap_uppercase", {"--colormap", "VIRIDIS"}, "viridis"},
                      BadInput{"probe_uppercase", {"--probe", "CAS"}, "cas"},
                      // The scheduling, home and flag options.
                      BadInput{"schedule_unknown", {"--schedule", "parallel"}, "parallel"},
                      BadInput{"concurrency_zero", {"--concurrency", "0"}, "--concurrency"},
                      BadInput{"check_pairs_zero", {"--check-pairs", "0"}, "--check-pairs"},
                      BadInput{"via_unknown", {"--via", "smem"}, "smem"},
                      BadInput{"home_lines_zero", {"--home-lines", "0"}, "--home-lines"},
                      BadInput{"flag_offset_unaligned", {"--flag-offset", "100"}, "--flag-offset"},
                      BadInput{"flag_offset_negative", {"--flag-offset", "-128"}, "--flag-offset"},
                      BadInput{"flag_offset_over_1gib", {"--flag-offset", "1073741952"}, "--flag-offset"},
                      BadInput{"flag_offset_not_a_number", {"--flag-offset", "4k"}, "--flag-offset"},
                      BadInput{"flag_offset_huge", {"--flag-offset", "99999999999999999999999"}, "--flag-offset"},
                      // Numbers are decimal only (CLI11 alone reads 0x as hex, for doubles too), and
                      // never empty (CLI11 alone took '' as 0).
                      BadInput{"iters_hex", {"--iters", "0x10"}, "--iters"},
                      BadInput{"samples_hex", {"--samples", "0X3"}, "--samples"},
                      BadInput{"warmup_empty", {"--warmup", ""}, "--warmup"},
                      BadInput{"timeout_hex", {"--timeout-ms", "0x10"}, "--timeout-ms"},
                      BadInput{"home_lines_hex", {"--home-lines", "0x40"}, "--home-lines"},
                      // The hip backend's queues mean nothing to the cpu backend.
                      BadInput{"max_streams_on_cpu", {"--max-streams", "4"}, "--max-streams"},
                      // A GPU named twice would quietly map one GPU: refused before any is counted.
                      BadInput{"devices_repeated", {"--devices", "0,0"}, "gpu 0 twice"},
                      BadInput{"devices_overlapping", {"--devices", "0-2,1"}, "gpu 1 twice"},
                      // What only a map across GPUs has, asked of one device.
                      BadInput{"cross_lines_without_devices", {"--cross-lines", "2"}, "--devices"},
                      BadInput{"cross_samples_without_devices", {"--cross-samples", "2"}, "--cross-samples"},
                      BadInput{"cross_warmup_without_devices", {"--cross-warmup", "1"}, "--cross-warmup"},
                      BadInput{"cross_samples_zero", {"--cross-samples", "0"}, "--cross-samples"},
                      // An unset shell variable is not the current directory...
                      BadInput{"resume_empty", {"--resume", ""}, "--resume"},
                      // ... and a resumed run writes only into its own directory.
                      BadInput{"resume_with_another_out", {"--resume", "earlier"}, "--out"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

// A GPU backend that is not built, or has no device, is a usage error too;
// where the device exists (a GPU machine) there is nothing to test.
class MissingBackend : public ::testing::TestWithParam<std::string> {};

TEST_P(MissingBackend, IsAUsageErrorAndWritesNothing) {
  const std::string kind = GetParam();
  if (backend_has_device(kind)) GTEST_SKIP() << kind << " has a device on this machine";
  TempDir cwd;
  const RunResult r = run_cumap(with_cheap_defaults({"--backend", kind, "--out", "out"}), cwd.path());
  expect_one_usage_line(r, kind);
  EXPECT_TRUE(snapshot(cwd.path()).empty());
}

INSTANTIATE_TEST_SUITE_P(GpuBackends, MissingBackend, ::testing::Values("cuda", "hip"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(UnwritableOut, OutUnderARegularFileIsAUsageError) {
  // A path below a regular file cannot be created even by root.
  TempDir cwd;
  write_text(cwd.path() / "afile", "not a directory\n");
  const auto before = snapshot(cwd.path());
  const RunResult r = run_cumap(with_cheap_defaults({"--out", "afile/out"}), cwd.path());
  expect_one_usage_line(r, "afile");
  EXPECT_EQ(snapshot(cwd.path()), before);
  EXPECT_TRUE(fs::is_regular_file(cwd.path() / "afile"));
}

TEST(UnwritableOut, OutThatIsARegularFileIsAUsageError) {
  TempDir cwd;
  write_text(cwd.path() / "afile", "not a directory\n");
  const auto before = snapshot(cwd.path());
  const RunResult r = run_cumap(with_cheap_defaults({"--out", "afile"}), cwd.path());
  expect_one_usage_line(r, "afile");
  EXPECT_EQ(snapshot(cwd.path()), before);
  EXPECT_EQ(read_text(cwd.path() / "afile"), "not a directory\n");
}

}  // namespace
}  // namespace cumap::test
