// Ctrl-C during a map keeps what was measured, and --resume completes it.
// The map is made long (64 lines of 200000 round trips for one pair of CPUs,
// about 3 s on CI's 2-core machine) so that a signal half a second in lands in
// the middle of it: at 20000 round trips the whole map once ended in 0.3 s,
// before the signal, and the test failed.

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace cumap::test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kLongMap{"--backend", "cpu", "--same-line", "--units", "0-1", "--iters", "200000",
                                        "--samples", "5", "--home-lines", "64", "--rotating-count", "64",
                                        "--timeout-ms", "30000", "--quiet"};

std::size_t rows(const fs::path& csv) {
  const std::string text = read_text(csv);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

bool has_temporary_files(const fs::path& dir) {
  for (const auto& [name, size] : snapshot(dir))
    if (name.find(".tmp") != std::string::npos) return true;
  return false;
}

TEST(InterruptResume, FirstSignalWritesWhatWasMeasuredAndResumeCompletesIt) {
  TempDir cwd;
  std::vector<std::string> args = kLongMap;
  args.insert(args.end(), {"--out", "D"});
  const int code = run_and_interrupt(args, cwd.path(), std::chrono::milliseconds(500));
  ASSERT_EQ(code, 130) << "the run should end with 130 after SIGINT";
  const fs::path d = cwd.path() / "D";
  EXPECT_FALSE(has_temporary_files(d));
  for (const char* f : {"meta.json", "pairs.csv", "matrix-same-line.csv", "homes.json", "heatmap-same-line.png"})
    EXPECT_TRUE(fs::is_regular_file(d / f)) << f;
  const auto meta = nlohmann::json::parse(read_text(d / "meta.json"));
  EXPECT_TRUE(meta.at("interrupted").get<bool>());
  EXPECT_FALSE(meta.at("maps")[0].at("complete").get<bool>());
  // One row per line of the one pair in each home class; a loaded machine
  // can show the CPU more than one class, and the rows follow homes.json.
  const auto classes = nlohmann::json::parse(read_text(d / "homes.json")).at("class_count").get<std::size_t>();
  const std::size_t all_rows = 1u + classes * 64u;
  const std::size_t partial = rows(d / "pairs.csv");
  EXPECT_LT(partial, all_rows) << "some of the 64 lines were still to come";

  // Same options, --resume instead of --out: only the missing lines are measured.
  std::vector<std::string> resume = kLongMap;
  resume.insert(resume.end(), {"--resume", "D"});
  const RunResult r = run_cumap(resume, cwd.path());
  // A loaded machine can show the CPU other home classes the second time;
  // --resume then rightly refuses to combine the pairs (that refusal has
  // tests of its own), and this one has nothing left to check.
  if (r.exit_code == 2 && r.err.find("found other classes of flag lines") != std::string::npos)
    GTEST_SKIP() << "home discovery found other classes on this loaded machine: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(rows(d / "pairs.csv"), all_rows) << "the header and one row per line of the one pair and class";
  const auto done = nlohmann::json::parse(read_text(d / "meta.json"));
  EXPECT_FALSE(done.at("interrupted").get<bool>());
  EXPECT_TRUE(done.at("maps")[0].at("complete").get<bool>());
  EXPECT_FALSE(has_temporary_files(d));
}

TEST(InterruptResume, ResumeWithOtherOptionsIsBadInputNamingTheDifference) {
  TempDir cwd;
  std::vector<std::string> args = kLongMap;
  args.insert(args.end(), {"--out", "D"});
  ASSERT_EQ(run_and_interrupt(args, cwd.path(), std::chrono::milliseconds(500)), 130);
  const auto before = snapshot(cwd.path() / "D");
  std::vector<std::string> other = kLongMap;
  std::replace(other.begin(), other.end(), std::string("200000"), std::string("100000"));  // --iters
  other.insert(other.end(), {"--resume", "D"});
  const RunResult r = run_cumap(other, cwd.path());
  EXPECT_EQ(r.exit_code, 2);
  ASSERT_EQ(r.err_lines().size(), 1u) << r.err;
  EXPECT_NE(r.err.find("iters"), std::string::npos) << r.err;
  EXPECT_EQ(snapshot(cwd.path() / "D"), before) << "a refused resume changes nothing";
}

// One sample of 200 million round trips (tens of seconds on any CPU): the
// first Ctrl-C used to wait for the sample to end (6 s at 3 million round
// trips on a loaded machine, 26 s at a million); now the measuring threads
// ask for it as they go, and the unfinished pair is left out.
TEST(Interrupt, FirstSignalStopsInsideALongSample) {
  TempDir cwd;
  const std::vector<std::string> args{"--backend",    "cpu",     "--same-line", "--units",   "0-1",
                                      "--iters",      "200000000", "--samples", "1",         "--warmup",
                                      "0",            "--home-lines", "1",      "--timeout-ms", "3600000",
                                      "--quiet",      "--out",   "D"};
  std::chrono::milliseconds after_signal{};
  const int code = run_and_interrupt(args, cwd.path(), std::chrono::milliseconds(1500), &after_signal);
  ASSERT_EQ(code, 130);
  EXPECT_LE(after_signal.count(), 3000) << "the first Ctrl-C took " << after_signal.count() << " ms to end the run";
  const fs::path d = cwd.path() / "D";
  const auto meta = nlohmann::json::parse(read_text(d / "meta.json"));
  EXPECT_TRUE(meta.at("interrupted").get<bool>());
  ASSERT_EQ(meta.at("maps").size(), 1u) << "the signal came before the map began";
  EXPECT_FALSE(meta.at("maps")[0].at("complete").get<bool>());
  EXPECT_EQ(rows(d / "pairs.csv"), 1u) << "the pair cut short is left out (a resumed run measures it)";
  EXPECT_FALSE(has_temporary_files(d));
}

// A cheap complete map: one pair over one flag line (one home class, which
// a resumed run finds again however busy the machine is).
const std::vector<std::string> kSmallMap{"--backend", "cpu", "--same-line", "--units", "0-1", "--iters", "50",
                                         "--samples", "3",   "--warmup",    "5",       "--home-lines", "1", "--quiet"};

// Every file under `dir` with its bytes.
std::map<std::string, std::string> contents(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = read_text(e.path());
  return files;
}

// pairs.csv's data rows marked timed out: a resumed run measures them again.
void mark_timed_out(const fs::path& pairs) {
  std::istringstream in(read_text(pairs));
  std::string out;
  std::string line;
  for (bool header = true; std::getline(in, line); header = false) {
    if (!header && line.size() >= 2 && line.compare(line.size() - 2, 2, ",0") == 0) line.back() = '1';
    out += line + "\n";
  }
  write_text(pairs, out);
}

fs::path small_complete_run(const fs::path& cwd) {
  std::vector<std::string> args = kSmallMap;
  args.insert(args.end(), {"--out", "D"});
  const RunResult r = run_cumap(args, cwd);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return cwd / "D";
}

// Resuming a complete run re-ran home discovery and rewrote every
// line_correction_ns (every cell moved); `--resume DIR` alone was refused
// ("the earlier run used "cpu", this one "auto"").
TEST(Resume, ResumingACompleteRunChangesNothing) {
  TempDir cwd;
  const fs::path d = small_complete_run(cwd.path());
  const auto before = contents(d);
  const RunResult alone = run_cumap({"--resume", "D"}, cwd.path());
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_NE(alone.out.find("complete"), std::string::npos) << alone.out;
  EXPECT_EQ(contents(d), before);
  std::vector<std::string> same = kSmallMap;
  same.insert(same.end(), {"--resume", "D"});
  const RunResult typed = run_cumap(same, cwd.path());
  ASSERT_EQ(typed.exit_code, 0) << typed.err;
  EXPECT_EQ(contents(d), before);
}

TEST(Resume, ResumeAloneContinuesWithTheRecordedOptions) {
  TempDir cwd;
  const fs::path d = small_complete_run(cwd.path());
  mark_timed_out(d / "pairs.csv");
  ASSERT_NE(read_text(d / "pairs.csv").find(",1\n"), std::string::npos);
  const RunResult r = run_cumap({"--resume", "D", "--quiet"}, cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_text(d / "pairs.csv").find(",1\n"), std::string::npos) << "the timed-out pair was measured again";
  EXPECT_EQ(rows(d / "pairs.csv"), 2u);
  const auto meta = nlohmann::json::parse(read_text(d / "meta.json"));
  EXPECT_EQ(meta.at("backend"), "cpu");
  EXPECT_EQ(meta.at("options").at("iters"), 50);
  EXPECT_EQ(meta.at("options").at("samples"), 3);
  EXPECT_EQ(meta.at("options").at("units_spec"), "0-1");
  EXPECT_TRUE(meta.at("maps")[0].at("complete").get<bool>());
  // An option typed with it must be the recorded one.
  mark_timed_out(d / "pairs.csv");
  const auto earlier = contents(d);
  expect_one_usage_line(run_cumap({"--resume", "D", "--samples", "4"}, cwd.path()), "--samples");
  EXPECT_EQ(contents(d), earlier);
}

// pairs.csv is read as untrusted input: a value no cumap writes, a unit the
// run does not map or a class its homes lack is refused, before any pair is
// measured, and the directory stays as it was.
TEST(Resume, RowsThatDoNotFitAreRefusedBeforeMeasuring) {
  TempDir cwd;
  const fs::path d = small_complete_run(cwd.path());
  mark_timed_out(d / "pairs.csv");
  const std::string pairs = read_text(d / "pairs.csv");
  const std::string header = pairs.substr(0, pairs.find('\n') + 1);
  const std::string row = pairs.substr(header.size());
  // The row with field `column` replaced (and measured, not timed out).
  const auto with = [&](std::size_t column, const std::string& value) {
    std::vector<std::string> fields;
    std::istringstream in(row.substr(0, row.find('\n')));
    for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
    fields.at(column) = value;
    fields.back() = "0";
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + fields[i];
    return out + "\n";
  };
  struct Case {
    std::string extra_row;
    std::string mentions;
  };
  for (const Case& c : std::vector<Case>{{with(1, "99"), "unit 99"},
                                         {with(4, "99"), "home class 99"},
                                         {with(17, "nan"), "samples"},
                                         {with(18, "1e300"), "iters"},
                                         {with(18, "0"), "iters"},
                                         {with(6, "-5"), "first_flag"}}) {
    SCOPED_TRACE(c.mentions);
    write_text(d / "pairs.csv", header + row + c.extra_row);
    const auto before = contents(d);
    const RunResult r = run_cumap({"--resume", "D"}, cwd.path());
    expect_one_usage_line(r, c.mentions);
    EXPECT_NE(r.err.find("line 3"), std::string::npos) << r.err;
    EXPECT_EQ(contents(d), before);
  }
}

// A run of an earlier cumap, whose meta.json lacks an option this one
// records, is refused with what to do, and left as it was.
TEST(Resume, ARunOfAnEarlierCumapIsRefusedWithWhatToDo) {
  TempDir cwd;
  const fs::path d = small_complete_run(cwd.path());
  mark_timed_out(d / "pairs.csv");
  auto meta = nlohmann::json::parse(read_text(d / "meta.json"));
  meta.at("options").erase("home_serial");
  write_text(d / "meta.json", meta.dump(2));
  const auto before = contents(d);
  const RunResult r = run_cumap({"--resume", "D"}, cwd.path());
  expect_one_usage_line(r, "an earlier version of cumap made this run");
  EXPECT_NE(r.err.find("measure it again"), std::string::npos) << r.err;
  EXPECT_EQ(contents(d), before);
}

}  // namespace
}  // namespace cumap::test
