// The run's page and joinable files end to end on the CPU backend:
// summary.md and `cumap summary DIR` (md, csv, json; bad DIRs) of a map and
// of a barrier and a contention run, units.csv against pairs.csv,
// topology.json, the matrix header's ids, a run in which no pair completed,
// and --cross-home on a device of one home class.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"
#include "core/units.hpp"

namespace cumap::test {
namespace summary_files_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::vector<std::string> quick_map_args(std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"--backend", "cpu", "--out", "D", "--iters", "50", "--samples", "3",
                                "--timeout-ms", "20000", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

class Summary : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cwd_ = new TempDir;
    const RunResult r = run_cumap(quick_map_args(), cwd_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete cwd_;
    cwd_ = nullptr;
  }
  static fs::path out() { return cwd_->path() / "D"; }
  static TempDir* cwd_;
};
TempDir* Summary::cwd_ = nullptr;

TEST_F(Summary, TheRunWritesWhatCumapSummaryPrints) {
  const std::string md = read_text(out() / "summary.md");
  ASSERT_FALSE(md.empty());
  for (const char* part : {"| device |", "| serial |", "| driver |", "| date |", "| command |", "## Maps",
                           "## Structure", "## Timed-out pairs", "index_col=0"})
    EXPECT_NE(md.find(part), std::string::npos) << part << "\n" << md;
  const RunResult r = run_cumap({"summary", out().string()}, cwd_->path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, md);
  // The same from the meta.json named itself.
  EXPECT_EQ(run_cumap({"summary", (out() / "meta.json").string()}, cwd_->path()).out, md);
}

// The views (extremes, units that stand out, block means) are in the page,
// and the set's files made again from its files alone are the run's own.
TEST_F(Summary, TheViewsAreInThePageAndTheFilesReadBack) {
  const std::string md = read_text(out() / "summary.md");
  for (const char* part : {"## Slowest and fastest pairs", "| same-line | slowest pair |"})
    EXPECT_NE(md.find(part), std::string::npos) << part << "\n" << md;
  // The additive fit needs three units: two cores give one pair, no terms, and no section of them.
  const bool fitted = lines_of(read_text(out() / "units.csv")).size() > 3;
  for (const char* part : {"that stand out", "fit_term_ns"})
    EXPECT_EQ(md.find(part) != std::string::npos, fitted) << part << "\n" << md;
  for (const char* file : {"units.csv", "summary.md"}) {
    const RunResult r = run_cumap({"summary", "D", "--file", file}, cwd_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, read_text(out() / file)) << file;
  }
  const RunResult blocks = run_cumap({"summary", "D", "--file", "block-means.csv"}, cwd_->path());
  ASSERT_EQ(blocks.exit_code, 0) << blocks.err;
  EXPECT_EQ(blocks.out.rfind("placement,home_class,by,row,column,mean_ns,cells\n", 0), 0u) << blocks.out;
  if (fs::exists(out() / "block-means.csv")) {
    EXPECT_EQ(blocks.out, read_text(out() / "block-means.csv"));
  }
  expect_one_usage_line(run_cumap({"summary", "D", "--file", "units.csv", "--format", "md"}, cwd_->path()),
                        "--file");
}

// The committed H200 set was written before meta.json held the views: its
// summary.md, made again from its files by `cumap summary`, gains them (the
// committed page's sections kept, in their order), and its units.csv gains
// each SM's fitted term beside the committed columns.
TEST(SummaryOfACommittedRun, TheH200SetGainsItsViewsFromItsMatrices) {
  TempDir cwd;
  const fs::path h200 = fs::path(CUMAP_PLOTS_DIR) / "h200";
  const RunResult r = run_cumap({"summary", h200.string()}, cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // A mirrored map's side x side means once per pair of sides.
  for (const char* part : {"## Slowest and fastest pairs", "## SMs that stand out", "## Zoomed out",
                           "| placement | home class | side0 – side0 | side0 – side1 | side1 – side1 |\n",
                           "| same-line | 0 | 2"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  std::size_t at = 0;
  for (const std::string& line : lines_of(read_text(h200 / "summary.md")))
    if (line.rfind("## ", 0) == 0) {
      const std::size_t found = r.out.find(line + "\n", at);
      ASSERT_NE(found, std::string::npos) << line << "\n" << r.out;
      at = found;
    }

  const RunResult units = run_cumap({"summary", h200.string(), "--file", "units.csv"}, cwd.path());
  ASSERT_EQ(units.exit_code, 0) << units.err;
  // The committed units.csv is this command's output (plots/README.md): the
  // same to the byte, every SM with its fitted term.
  EXPECT_EQ(units.out, read_text(h200 / "units.csv"));
  const auto made = lines_of(units.out);
  ASSERT_EQ(made.size(), 133u);
  EXPECT_EQ(made[0], "unit,device,unit_index,side,group,display_index,fit_term_ns");
  for (std::size_t i = 1; i < made.size(); ++i) EXPECT_NE(made[i].back(), ',') << "SM without a fitted term: " << made[i];
  const RunResult blocks = run_cumap({"summary", h200.string(), "--file", "block-means.csv"}, cwd.path());
  ASSERT_EQ(blocks.exit_code, 0) << blocks.err;
  EXPECT_EQ(blocks.out.rfind("placement,home_class,by,row,column,mean_ns,cells\n", 0), 0u) << blocks.out;
  EXPECT_NE(blocks.out.find("\nsame-line,0,side,side0,side1,"), std::string::npos) << blocks.out;
}

TEST_F(Summary, CsvIsTidyAndJsonIsTheSummary) {
  const RunResult csv = run_cumap({"summary", "D", "--format", "csv"}, cwd_->path());
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const auto lines = lines_of(csv.out);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "placement,home_class,relation,near_units,where,median_ns,p05_ns,p95_ns,cells");
  std::set<std::string> keys;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto cells = csv_cells(lines[i]);
    ASSERT_EQ(cells.size(), 9u) << lines[i];
    EXPECT_TRUE(keys.insert(cells[0] + "/" + cells[1] + "/" + cells[2] + "/" + cells[3]).second)
        << "one row per placement, class and relation: " << lines[i];
  }
  const RunResult json = run_cumap({"summary", "D", "--format", "json"}, cwd_->path());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const Json j = Json::parse(json.out);
  EXPECT_EQ(j.at("device").at("backend"), "cpu");
  EXPECT_EQ(j.at("maps").size(), 2u);
  EXPECT_FALSE(j.at("no_pair_completed").get<bool>());
}

TEST_F(Summary, EveryUnitOfPairsCsvIsInUnitsCsvOnce) {
  const auto units = lines_of(read_text(out() / "units.csv"));
  ASSERT_GE(units.size(), 3u);
  EXPECT_EQ(units[0], "unit,device,unit_index,side,group,display_index,fit_term_ns");
  std::map<std::string, int> count;
  for (std::size_t i = 1; i < units.size(); ++i) {
    const auto cells = csv_cells(units[i]);
    ASSERT_EQ(cells.size(), 7u) << units[i];
    // The additive fit needs three units (on two cores every term is empty).
    EXPECT_EQ(cells[6].empty(), units.size() <= 3) << "every unit of a complete map has its fitted term: " << units[i];
    ++count[cells[0]];
    EXPECT_EQ(cells[5], std::to_string(i - 1)) << "rows in display order";
  }
  const auto pairs = lines_of(read_text(out() / "pairs.csv"));
  std::set<std::string> in_pairs;
  for (std::size_t i = 1; i < pairs.size(); ++i) {
    const auto cells = csv_cells(pairs[i]);
    in_pairs.insert({cells.at(0), cells.at(1)});
  }
  ASSERT_FALSE(in_pairs.empty());
  for (const std::string& u : in_pairs) EXPECT_EQ(count[u], 1) << "unit " << u;
}

TEST_F(Summary, TopologyJsonIsWhatCumapTopologyWrites) {
  const Json map = Json::parse(read_text(out() / "topology.json"));
  const RunResult r = run_cumap({"topology", "--backend", "cpu", "--json", "T.json"}, cwd_->path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json topo = Json::parse(read_text(cwd_->path() / "T.json"));
  // The same keys; the sides are measured each time, the groups are the machine's.
  std::set<std::string> map_keys, topo_keys;
  for (const auto& [k, v] : map.items()) map_keys.insert(k);
  for (const auto& [k, v] : topo.items()) topo_keys.insert(k);
  EXPECT_EQ(map_keys, topo_keys);
  EXPECT_EQ(map.at("groups"), topo.at("groups"));
  EXPECT_TRUE(map.at("sides").is_array());
  EXPECT_EQ(map.at("home_classes"), Json::parse(read_text(out() / "homes.json")).at("class_count"));
}

// The header's ids are the rows' ids, in the same order: a reader that
// makes the column labels numbers (pandas: m.columns = m.columns.astype(int))
// indexes m.loc[a, b] and m.loc[b, a] alike.
TEST_F(Summary, MatrixHeaderIdsAreTheRowIdsAsIntegers) {
  const auto lines = lines_of(read_text(out() / "matrix-same-line.csv"));
  ASSERT_GE(lines.size(), 3u);
  auto header = csv_cells(lines[0]);
  ASSERT_EQ(header.at(0), "unit");
  header.erase(header.begin());
  ASSERT_EQ(header.size() + 1, lines.size());
  for (std::size_t i = 0; i < header.size(); ++i) {
    EXPECT_EQ(csv_cells(lines[i + 1]).at(0), header[i]);
    EXPECT_TRUE(!header[i].empty() && std::all_of(header[i].begin(), header[i].end(), ::isdigit)) << header[i];
  }
}

TEST(SummaryErrors, ABadDirectoryIsOneLineAndExit2) {
  TempDir cwd;
  fs::create_directories(cwd.path() / "empty");
  fs::create_directories(cwd.path() / "garbled");
  write_text(cwd.path() / "garbled" / "meta.json", "{not json");
  fs::create_directories(cwd.path() / "other");
  write_text(cwd.path() / "other" / "meta.json", R"({"tool": "something else", "maps": []})");
  fs::create_directories(cwd.path() / "homes");
  write_text(cwd.path() / "homes" / "meta.json", R"({"tool": "cumap", "homes": {}})");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"summary", "missing"}, "does not exist"},
      {{"summary", "empty"}, "has no meta.json"},
      {{"summary", "garbled"}, "not valid json"},
      {{"summary", "other"}, "not the meta.json of a cumap map"},
      {{"summary", "homes"}, "cumap homes"},
      {{"summary", "empty", "--format", "xml"}, "--format"},
      {{"summary"}, "dir"},
  };
  for (const auto& [args, mentions] : cases) {
    SCOPED_TRACE(args.back());
    expect_one_usage_line(run_cumap(args, cwd.path()), mentions);
  }
}

// `cumap summary` of the sets `cumap barrier` and `cumap contention` write:
// one run of each (a moment: few lines and episodes), read by every test.
class SyncSummaryCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cwd_ = new TempDir;
    for (const char* command : {"barrier", "contention"}) {
      const RunResult r = run_cumap({command, "--backend", "cpu", "--home-lines", "16", "--episodes", "50", "--out",
                                     command, "--quiet"},
                                    cwd_->path());
      ASSERT_EQ(r.exit_code, 0) << command << ": " << r.err;
    }
  }
  static void TearDownTestSuite() {
    delete cwd_;
    cwd_ = nullptr;
  }
  static fs::path cwd() { return cwd_->path(); }
  // A copy of the set `command` wrote, to break.
  static fs::path copy_of(const std::string& command, const std::string& name) {
    fs::copy(cwd() / command, cwd() / name, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    return cwd() / name;
  }
  static TempDir* cwd_;
};
TempDir* SyncSummaryCommand::cwd_ = nullptr;

TEST_F(SyncSummaryCommand, MarkdownIsTheSummaryTheRunWrote) {
  for (const std::string command : {"barrier", "contention"}) {
    SCOPED_TRACE(command);
    const std::string md = read_text(cwd() / command / "summary.md");
    EXPECT_NE(md.find("# cumap " + command + ": "), std::string::npos) << md;
    EXPECT_NE(md.find("## At k = every unit of each set"), std::string::npos) << md;
    // Some set holds every measured CPU; which one depends on how many home
    // classes the run found (a loaded 2-CPU machine may find two: one-side then
    // holds one CPU and is left out).
    std::smatch measured;
    ASSERT_TRUE(std::regex_search(md, measured, std::regex(R"((\d+) cpus measured)"))) << md;
    EXPECT_TRUE(std::regex_search(md, std::regex(R"(\n\| [a-z-]+ \| )" + measured[1].str() + R"( \| )")))
        << "a row at k = every unit\n" << md;
    const RunResult r = run_cumap({"summary", command}, cwd());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, md);
    EXPECT_EQ(run_cumap({"summary", (cwd() / command / "meta.json").string()}, cwd()).out, md);
  }
  EXPECT_NE(read_text(cwd() / "barrier" / "summary.md").find("| ns per barrier |"), std::string::npos);
  EXPECT_NE(read_text(cwd() / "contention" / "summary.md").find("| ops/us |"), std::string::npos);
}

TEST_F(SyncSummaryCommand, CsvIsTheFilesRowsAtEveryUnitAndJsonTheSameRows) {
  for (const std::string command : {"barrier", "contention"}) {
    SCOPED_TRACE(command);
    const auto file = lines_of(read_text(cwd() / command / (command + ".csv")));
    const RunResult csv = run_cumap({"summary", command, "--format", "csv"}, cwd());
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    const auto lines = lines_of(csv.out);
    ASSERT_GE(lines.size(), 2u) << csv.out;
    EXPECT_EQ(lines[0], file[0]) << "the file's columns";
    // k is the second column; every row is at the largest k of its set.
    std::map<std::string, int> most;
    for (std::size_t i = 1; i < file.size(); ++i) {
      const auto cells = csv_cells(file[i]);
      most[cells.at(2)] = std::max(most[cells.at(2)], std::stoi(cells.at(1)));
    }
    std::size_t at_most = 0;
    for (std::size_t i = 1; i < file.size(); ++i) {
      const auto cells = csv_cells(file[i]);
      at_most += std::stoi(cells.at(1)) == most[cells.at(2)];
    }
    EXPECT_EQ(lines.size() - 1, at_most);
    for (std::size_t i = 1; i < lines.size(); ++i) {
      EXPECT_NE(std::find(file.begin(), file.end(), lines[i]), file.end()) << "a row of the file: " << lines[i];
      const auto cells = csv_cells(lines[i]);
      EXPECT_EQ(std::stoi(cells.at(1)), most[cells.at(2)]) << lines[i];
    }
    const RunResult json = run_cumap({"summary", command, "--format", "json"}, cwd());
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const Json j = Json::parse(json.out);
    EXPECT_EQ(j.at("command"), command);
    EXPECT_EQ(j.at("device").at("backend"), "cpu");
    EXPECT_TRUE(j.at("complete").get<bool>());
    ASSERT_EQ(j.at("rows").size(), lines.size() - 1);
    for (const Json& row : j.at("rows")) {
      EXPECT_TRUE(row.at("headline_ns").is_number() || !row.at("measured").get<bool>()) << row;
      EXPECT_EQ(row.contains("per_barrier_ns"), command == "barrier") << row;
    }
  }
}

// A set as an earlier cumap wrote it: its meta.json holds the counts of the
// cases but not the cases, which `cumap summary` then reads from the CSV.
void as_earlier_cumap(const fs::path& dir) {
  Json meta = Json::parse(read_text(dir / "meta.json"));
  meta.at("cases").erase("at_every_unit");
  write_text(dir / "meta.json", meta.dump(2));
}

TEST_F(SyncSummaryCommand, MetaJsonAloneIsTheSummary) {
  const fs::path no_csv = copy_of("barrier", "meta-alone");
  fs::remove(no_csv / "barrier.csv");
  const RunResult r = run_cumap({"summary", "meta-alone"}, cwd());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, read_text(cwd() / "barrier" / "summary.md"));
}

TEST_F(SyncSummaryCommand, AnEarlierCumapsSetIsReadWithItsCsv) {
  const fs::path earlier = copy_of("contention", "earlier");
  as_earlier_cumap(earlier);
  const RunResult r = run_cumap({"summary", "earlier"}, cwd());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("## At k = every unit of each set"), std::string::npos) << r.out;
}

TEST_F(SyncSummaryCommand, ABrokenSetIsOneLineAndExit2) {
  const fs::path no_csv = copy_of("barrier", "no-csv");
  fs::remove(no_csv / "barrier.csv");
  const fs::path truncated_meta = copy_of("contention", "truncated-meta");
  const std::string meta = read_text(truncated_meta / "meta.json");
  write_text(truncated_meta / "meta.json", meta.substr(0, meta.size() / 2));
  const fs::path short_csv = copy_of("barrier", "short-csv");
  const std::string csv = read_text(short_csv / "barrier.csv");
  write_text(short_csv / "barrier.csv", csv.substr(0, csv.find('\n') + 1) + "counter,2,one-side\n");
  const fs::path garbled_csv = copy_of("contention", "garbled-csv");
  std::string garbled = read_text(garbled_csv / "contention.csv");
  // The first row's k (its second field).
  const std::size_t k = garbled.find(',', garbled.find('\n')) + 1;
  garbled.replace(k, garbled.find(',', k) - k, "two");
  write_text(garbled_csv / "contention.csv", garbled);
  const fs::path swapped = copy_of("barrier", "swapped");
  fs::copy_file(cwd() / "contention" / "contention.csv", swapped / "barrier.csv",
                fs::copy_options::overwrite_existing);
  // The CSVs are read for sets whose meta.json holds no cases.
  for (const fs::path& dir : {no_csv, short_csv, garbled_csv, swapped}) as_earlier_cumap(dir);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"summary", "no-csv"}, "barrier.csv does not exist"},
      {{"summary", "truncated-meta"}, "not valid json"},
      {{"summary", "short-csv", "--format", "csv"}, "fields where the header has"},
      {{"summary", "garbled-csv", "--format", "json"}, "column k: 'two'"},
      {{"summary", "swapped"}, "first column is 'op'"},
  };
  for (const auto& [args, mentions] : cases) {
    SCOPED_TRACE(args.at(1));
    const RunResult r = run_cumap(args, cwd());
    expect_one_usage_line(r, mentions);
    EXPECT_EQ(r.out, "") << "nothing printed before the error";
  }
}

// Pairs whose partner cannot answer within a nanosecond's budget time out:
// on the CPU backend every pair does (the budget is checked every 1024
// polls), which makes the all-timed-out run without a test backend.
TEST(SummaryFailures, NoPairCompletedExits3AndSaysSo) {
  TempDir cwd;
  const RunResult r = run_cumap({"--backend", "cpu", "--units", "0-1", "--out", "D", "--iters", "50", "--samples",
                                 "3", "--timeout-ms", "1e-9"},
                                cwd.path());
  const Json meta = Json::parse(read_text(cwd.path() / "D" / "meta.json"));
  for (const Json& m : meta.at("maps"))
    if (m.at("completed_pairs").get<int>() > 0) GTEST_SKIP() << "a pair completed within 1e-9 ms on this machine";
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("cumap: no pair completed"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("same-line: no pair completed"), std::string::npos) << r.out;
  for (const Json& m : meta.at("maps")) EXPECT_FALSE(m.at("complete").get<bool>());
  EXPECT_NE(read_text(cwd.path() / "D" / "summary.md").find("No pair completed"), std::string::npos);
  std::string said = r.out + r.err;
  for (const auto& e : fs::directory_iterator(cwd.path() / "D"))
    if (e.path().extension() != ".png" && e.path().extension() != ".html") said += read_text(e.path());  // see run_summary_test
  EXPECT_FALSE(std::regex_search(said, std::regex(R"(\bnan\b)", std::regex::icase))) << said;
}

// One probed line is one home class, whatever the CPU: --cross-home is
// refused when home discovery ends, and the directory the run made is gone.
TEST(SummaryFailures, CrossHomeWithOneClassLeavesNothing) {
  TempDir cwd;
  const RunResult r = run_cumap({"--backend", "cpu", "--out", "new/D", "--iters", "5", "--samples", "1",
                                 "--cross-home", "--home-lines", "1", "--quiet"},
                                cwd.path());
  expect_one_usage_line(r, "home discovery found one class");
  EXPECT_TRUE(snapshot(cwd.path()).empty()) << "no directory, no matrix, no pairs.csv";
}

}  // namespace
}  // namespace cumap::test
