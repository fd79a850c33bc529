// Issue #14: failed runs leave nothing behind and touch nothing of the
// user's; bad input is exit 2 with one printable line; big inputs stay cheap.
#include <sys/resource.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sanitizer_build.hpp"

#include "cli_harness.hpp"

namespace cumap::test {
namespace reliability_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

namespace fs = std::filesystem;

const std::vector<std::string> kCheapMap{"--backend", "cpu", "--iters", "5", "--samples", "1", "--warmup", "1",
                                         "--quiet"};

std::vector<std::string> cheap_map(std::vector<std::string> extra) {
  std::vector<std::string> args = kCheapMap;
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// Exit 2 and one line, with nothing unprintable in it.
void expect_usage_line(const RunResult& r) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const auto lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << "stderr:\n" << r.err;
  EXPECT_EQ(lines[0].rfind("cumap: error:", 0), 0u) << lines[0];
  for (unsigned char c : lines[0]) EXPECT_FALSE(c < 0x20 || c == 0x7f) << "control character " << int(c);
  EXPECT_LT(lines[0].size(), 600u) << "an unbounded echo of the input";
}

const std::string kGoodCsv = "unit,0,1\n0,,12.5\n1,12.5,\n";

// 1. A dangling symbolic link given as --out is the user's: it stays.
TEST(Reliability, DanglingSymlinkOutIsKept) {
  TempDir cwd;
  fs::create_symlink("/nonexistent/t", cwd.path() / "L");
  const RunResult r = run_cumap(cheap_map({"--out", "L"}), cwd.path());
  expect_usage_line(r);
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(cwd.path() / "L"))) << "cumap removed the user's link";
  EXPECT_EQ(fs::read_symlink(cwd.path() / "L"), "/nonexistent/t");
}

// 2. A failed run removes every directory it created, and only those.
TEST(Reliability, FailedRunRemovesTheDirectoriesItCreated) {
  TempDir cwd;
  fs::create_directory(cwd.path() / "n0");
  const RunResult r = run_cumap(cheap_map({"--out", "n0/n1/a/b", "--l2-persist"}), cwd.path());
  expect_usage_line(r);
  EXPECT_TRUE(fs::is_directory(cwd.path() / "n0"));
  EXPECT_FALSE(fs::exists(cwd.path() / "n0" / "n1"));
}

// 7. Bad input that used to be an "internal error" (exit 1).
TEST(Reliability, RenderOrderNamingADirectory) {
  TempDir cwd;
  write_text(cwd.path() / "m.csv", kGoodCsv);
  fs::create_directory(cwd.path() / "adir");
  expect_usage_line(run_cumap({"render", "m.csv", "-o", "x.png", "--order", "adir"}, cwd.path()));
  EXPECT_FALSE(fs::exists(cwd.path() / "x.png"));
}

TEST(Reliability, OutPathTooLong) {
  TempDir cwd;
  const auto before = snapshot(cwd.path());
  expect_usage_line(run_cumap(cheap_map({"--out", std::string(300, 'o')}), cwd.path()));
  expect_usage_line(run_cumap(cheap_map({"--out", std::string(5000, 'o')}), cwd.path()));
  EXPECT_EQ(snapshot(cwd.path()), before);
}

TEST(Reliability, RenderTitleTooLong) {
  TempDir cwd;
  write_text(cwd.path() / "m.csv", kGoodCsv);
  const RunResult r = run_cumap({"render", "m.csv", "-o", "x.png", "--title", std::string(120000, 't')}, cwd.path());
  expect_usage_line(r);
  EXPECT_NE(r.err.find("too long"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(cwd.path() / "x.png"));
  // At the limit it is fine.
  EXPECT_EQ(run_cumap({"render", "m.csv", "-o", "x.png", "--title", std::string(200, 't')}, cwd.path()).exit_code, 0);
}

TEST(Reliability, RenderOutputThatCannotBeWritten) {
  TempDir cwd;
  write_text(cwd.path() / "m.csv", kGoodCsv);
  write_text(cwd.path() / "afile", "x");
  fs::create_directory(cwd.path() / "adir");
  fs::create_directory(cwd.path() / "readonly");
  fs::permissions(cwd.path() / "readonly", fs::perms::owner_read | fs::perms::owner_exec);
  std::vector<std::string> targets{"missing/x.png", "adir", "", "afile/x.png"};
  if (::geteuid() != 0) targets.push_back("readonly/x.png");  // root writes anywhere
  for (const std::string& target : targets) {
    SCOPED_TRACE(target);
    const auto before = snapshot(cwd.path());
    expect_usage_line(run_cumap({"render", "m.csv", "-o", target}, cwd.path()));
    EXPECT_EQ(snapshot(cwd.path()), before);
  }
  fs::permissions(cwd.path() / "readonly", fs::perms::owner_all);
}

TEST(Reliability, TopologyJsonOntoADirectory) {
  TempDir cwd;
  fs::create_directory(cwd.path() / "adir");
  const auto before = snapshot(cwd.path());
  expect_usage_line(run_cumap({"topology", "--backend", "cpu", "--json", "adir"}, cwd.path()));
  EXPECT_EQ(snapshot(cwd.path()), before);
  expect_usage_line(run_cumap({"topology", "--backend", "cpu", "--json", "new/"}, cwd.path()));
  EXPECT_EQ(snapshot(cwd.path()), before);
}

// Every single-file output treats a missing directory alike: render -o
// refused it, topology --json made it (and its parents).
TEST(Reliability, JsonIntoAMissingDirectoryIsBadInputLikeRender) {
  TempDir cwd;
  const auto before = snapshot(cwd.path());
  const RunResult topology = run_cumap({"topology", "--backend", "cpu", "--json", "missing/dir/t.json"}, cwd.path());
  expect_one_usage_line(topology, "missing/dir");
  EXPECT_EQ(snapshot(cwd.path()), before);
  const RunResult coherence =
      run_cumap({"check-coherence", "--backend", "cpu", "--json", "missing/c.json"}, cwd.path());
  expect_one_usage_line(coherence, "missing");
  EXPECT_EQ(snapshot(cwd.path()), before);
  // Into a directory that exists it is written.
  fs::create_directory(cwd.path() / "there");
  ASSERT_EQ(run_cumap({"topology", "--backend", "cpu", "--json", "there/t.json"}, cwd.path()).exit_code, 0);
  EXPECT_TRUE(fs::is_regular_file(cwd.path() / "there" / "t.json"));
}

// A bad CUMAP_FONT was found after the whole measurement, whose data was then
// thrown away; now the font is opened first. The map asked for here would
// measure for minutes (a sample of 200 million round trips).
TEST(Reliability, UnusableFontIsFoundBeforeMeasuring) {
  TempDir cwd;
  write_text(cwd.path() / "notes.txt", "not a font\n");
  ::setenv("CUMAP_FONT", (cwd.path() / "notes.txt").c_str(), 1);
  const auto started = std::chrono::steady_clock::now();
  const RunResult r = run_cumap({"--backend", "cpu", "--same-line", "--units", "0-1", "--iters", "200000000",
                                 "--samples", "1", "--home-lines", "1", "--timeout-ms", "3600000", "--quiet", "--out",
                                 "D"},
                                cwd.path());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const RunResult homes = run_cumap({"homes", "--backend", "cpu", "--home-lines", "1", "--out", "H"}, cwd.path());
  ::unsetenv("CUMAP_FONT");
  expect_one_usage_line(r, "not a font freetype can read");
  EXPECT_LT(seconds, 10.0) << "the font was checked only after measuring";
  EXPECT_FALSE(fs::exists(cwd.path() / "D"));
  expect_one_usage_line(homes, "not a font");
  EXPECT_FALSE(fs::exists(cwd.path() / "H"));
}

// 8. Options that would be silently ignored.
TEST(Reliability, MapOptionsBeforeASubcommand) {
  TempDir cwd;
  write_text(cwd.path() / "m.csv", kGoodCsv);
  const auto before = snapshot(cwd.path());
  const RunResult r = run_cumap({"--iters", "0", "render", "m.csv", "-o", "x.png"}, cwd.path());
  expect_usage_line(r);
  EXPECT_NE(r.err.find("--iters"), std::string::npos) << r.err;
  expect_usage_line(run_cumap({"--backend", "cpu", "topology"}, cwd.path()));
  expect_usage_line(run_cumap({"--quiet", "check-coherence"}, cwd.path()));
  expect_usage_line(run_cumap({"--list-devices", "--iters", "5"}, cwd.path()));
  EXPECT_EQ(snapshot(cwd.path()), before);
}

TEST(Reliability, SubcommandDeviceOptions) {
  TempDir cwd;
  expect_usage_line(run_cumap({"topology", "--backend", "cpu", "--device", "99"}, cwd.path()));
  expect_usage_line(run_cumap({"topology", "--backend", "cpu", "--unit", "wgp"}, cwd.path()));
  expect_usage_line(run_cumap({"topology", "--backend", "CPU"}, cwd.path()));
  expect_usage_line(run_cumap({"check-coherence", "--window-ms", "inf"}, cwd.path()));
}

TEST(Reliability, OutWithAControlCharacter) {
  TempDir cwd;
  for (const std::string& out : std::vector<std::string>{"a\nb", "a\rb", "tab\there", "esc\x1b[2J"}) {
    const RunResult r = run_cumap(cheap_map({"--out", out}), cwd.path());
    expect_usage_line(r);
  }
  EXPECT_TRUE(snapshot(cwd.path()).empty());
}

// 6. Whatever the input, the message is one printable line.
TEST(Reliability, HostileInputGivesOnePrintableLine) {
  TempDir cwd;
  const std::string hostile = "x\ny\rz" + std::string(1, '\0') + std::string(500, 'w');
  write_text(cwd.path() / "cell.csv", "unit,0,1\n0,,\"" + hostile + "\"\n1,1,\n");
  write_text(cwd.path() / "id.csv", "unit,0,\"" + hostile + "\"\n0,,1\n1,1,\n");
  write_text(cwd.path() / "m.csv", kGoodCsv);
  write_text(cwd.path() / "order.json",
             R"({"groups": [{"name": "evil\nname\u0000)" + std::string(300, 'n') + R"(", "units": [0, 7]}]})");
  write_text(cwd.path() / "dup.json",
             R"({"groups": [{"name": "a\r\nb", "units": [0]}, {"name": "c\nd", "units": [0]}]})");
  expect_usage_line(run_cumap({"render", "cell.csv", "-o", "x.png"}, cwd.path()));
  expect_usage_line(run_cumap({"render", "id.csv", "-o", "x.png"}, cwd.path()));
  expect_usage_line(run_cumap({"render", "m.csv", "-o", "x.png", "--order", "order.json"}, cwd.path()));
  expect_usage_line(run_cumap({"render", "m.csv", "-o", "x.png", "--order", "dup.json"}, cwd.path()));
  expect_usage_line(run_cumap({"render", "m.csv", "-o", "x.png", "--scale", "1\n:2"}, cwd.path()));
  expect_usage_line(run_cumap({"render", "m.csv", "-o", "x.png", "--colormap", "a\nb"}, cwd.path()));
  expect_usage_line(run_cumap(cheap_map({"--units", "0,\x01\n1"}), cwd.path()));  // (a bare line break is blank space there)
  expect_usage_line(run_cumap(cheap_map({"--backend", std::string(10000, 'b') + "\n"}), cwd.path()));
  expect_usage_line(run_cumap({"render", "missing\n.csv", "-o", "x.png"}, cwd.path()));
  EXPECT_FALSE(fs::exists(cwd.path() / "x.png"));
}

// 5. Ranges at the edge of double render, exit 0.
TEST(Reliability, ExtremeValueRangesRender) {
  TempDir cwd;
  write_text(cwd.path() / "huge.csv", "unit,0,1\n0,,-1e308\n1,1e308,\n");
  write_text(cwd.path() / "tiny.csv", "unit,0,1\n0,,0\n1,5e-324,\n");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"render", "huge.csv", "-o", "a.png"},
           {"render", "tiny.csv", "-o", "b.png"},
           {"render", "m.csv", "-o", "c.png", "--scale=-1e308:1e308"}}) {
    if (args[1] == "m.csv") write_text(cwd.path() / "m.csv", kGoodCsv);
    const RunResult r = run_cumap(args, cwd.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(has_png_signature(cwd.path() / args[3]));
  }
}

// 9. A 2000x2000 matrix renders in bounded memory and time.
TEST(Reliability, BigMatrixRendersWithinBounds) {
  constexpr int n = 2000;
  TempDir cwd;
  {
    std::ofstream out(cwd.path() / "big.csv");
    out << "unit";
    for (int c = 0; c < n; ++c) out << ',' << c;
    out << '\n';
    for (int r = 0; r < n; ++r) {
      out << r;
      for (int c = 0; c < n; ++c) out << ',' << (r == c ? "" : std::to_string(200 + (r * 7 + c * 13) % 400) + ".5");
      out << '\n';
    }
  }
  const auto started = std::chrono::steady_clock::now();
  const RunResult r = run_cumap({"render", "big.csv", "-o", "big.png"}, cwd.path());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has_png_signature(cwd.path() / "big.png"));
  if (CUMAP_ASAN_BUILD) GTEST_SKIP() << "resident memory and time are not comparable under AddressSanitizer";
  // The largest child so far (this test runs alone in its process): cumap.
  rusage children{};
  getrusage(RUSAGE_CHILDREN, &children);
  const long peak_mib = children.ru_maxrss / 1024;
  // 4 M cells are 32 MiB as doubles, the picture some tens of MiB; a string
  // per cell was ~300 MiB more. Generous for any CI machine.
  EXPECT_LT(peak_mib, 400) << "render of a 2000x2000 matrix peaked at " << peak_mib << " MiB";
  EXPECT_LT(seconds, 60.0);
}

}  // namespace
}  // namespace cumap::test
