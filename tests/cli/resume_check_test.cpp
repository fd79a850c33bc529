#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/run_summary.hpp"
#include "cumap/result.hpp"
#include "report/meta_json.hpp"
#include "cli/resume_check.hpp"
#include "cli/resumed_run.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

// meta.json of an earlier run with options `o`, as it reads back from disk.
nlohmann::json earlier_meta(const Options& o) {
  MapResult result;
  result.run.tool_version = "test";
  result.settings.options = to_json(o);
  return nlohmann::json::parse(make_meta(result, run_summary(result)).dump());
}

TEST(ResumeCheck, SameOptionsAgree) {
  Options o;
  o.iters = 50;
  o.units_spec = "0-7";
  o.flag_offset = 4096;
  o.timeout_ms = 0.1;
  EXPECT_EQ(first_option_difference(earlier_meta(o), o), std::nullopt);
}

TEST(ResumeCheck, OutputDirQuietAndResumeDirAreIgnored) {
  Options o;
  Options other = o;
  other.out_dir = "elsewhere";
  other.quiet = true;
  other.resume_dir = "out";
  EXPECT_EQ(first_option_difference(earlier_meta(o), other), std::nullopt);
}

TEST(ResumeCheck, FirstDifferenceIsNamedWithBothValues) {
  Options o;
  o.iters = 100;
  Options other = o;
  other.iters = 7;
  other.probe = Probe::Exch;
  const auto diff = first_option_difference(earlier_meta(o), other);
  ASSERT_TRUE(diff);
  EXPECT_EQ(*diff, "iters: the earlier run used 100, this one 7");
  // Left to the backend is a value of its own: resuming must not change it.
  const auto unset = first_option_difference(earlier_meta(Options{}), other);
  ASSERT_TRUE(unset);
  EXPECT_EQ(*unset, "iters: the earlier run used the backend's default, this one 7");

  other.iters = o.iters;
  const auto probe = first_option_difference(earlier_meta(o), other);
  ASSERT_TRUE(probe);
  EXPECT_EQ(probe->rfind("probe:", 0), 0u) << *probe;
  EXPECT_NE(probe->find("exch"), std::string::npos) << *probe;
}

TEST(ResumeCheck, PlacementsAndFlagOffsetCount) {
  Options o;
  Options cross = o;
  cross.placements.push_back(Placement::CrossHome);
  cross.cross_home = true;
  EXPECT_TRUE(first_option_difference(earlier_meta(o), cross));
  Options offset = o;
  offset.flag_offset = 4096;
  EXPECT_TRUE(first_option_difference(earlier_meta(o), offset));
}

TEST(ResumeCheck, MissingOrUnknownOptionsAreDifferences) {
  Options o;
  EXPECT_TRUE(first_option_difference(nlohmann::json::object(), o));
  EXPECT_TRUE(first_option_difference(nlohmann::json{{"options", 3}}, o));

  nlohmann::json future = earlier_meta(o);
  future["options"]["from_the_future"] = true;
  const auto unknown = first_option_difference(future, o);
  ASSERT_TRUE(unknown);
  EXPECT_NE(unknown->find("from_the_future"), std::string::npos);

  nlohmann::json older = earlier_meta(o);
  older["options"].erase("via");
  const auto missing = first_option_difference(older, o);
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->rfind("via:", 0), 0u) << *missing;
}

TEST(ResumeCheck, HostileValuesStayOneLine) {
  Options o;
  nlohmann::json meta = earlier_meta(o);
  meta["options"]["units_spec"] = std::string(500, 'x') + "\n";
  const auto diff = first_option_difference(meta, o);
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->find('\n'), std::string::npos);
  EXPECT_LT(diff->size(), 200u);
}

// An earlier run of units 0-3 on one device, same-line, one line per class,
// two classes: pairs.csv rows that fit it, its homes.json (lines 0, 128, 256
// and 384, classes 0 1 0 1), and this run's homes, which found the same.
struct EarlierRun {
  cli::ResumedRun run;
  RunHomes homes;
  MapSettings settings;
  Options options;
  std::vector<int> units{0, 1, 2, 3};

  EarlierRun() {
    run.dir = "D";
    settings.placements = {Placement::SameLine};
    settings.lines_per_class = 1;
    settings.iters = 100;
    options.samples = 5;
    HomesResult h;
    h.unit_ids = units;
    for (int u : units) h.table.units.push_back(UnitRef{0, u});
    h.table.lines = {0, 128, 256, 384};
    h.classes.class_count = 2;
    h.classes.line_class = {0, 1, 0, 1};
    homes = {h};
    run.homes = {{"device", 0}, {"class_count", 2}, {"line_class", {{"0", 0}, {"128", 1}, {"256", 0}, {"384", 1}}}};
    add(0, 1, 0, 0);
    add(0, 2, 1, 128);
  }
  PlacedPairStats& add(int a, int b, int cls, std::uint64_t first_flag) {
    PlacedPairStats row;
    row.placement = Placement::SameLine;
    row.line = run.pairs.size() + 2;
    row.stats.a = a;
    row.stats.b = b;
    row.stats.home_class = cls;
    row.stats.first_flag = first_flag;
    row.stats.second_flag = first_flag + 4;
    row.stats.iters = 100;
    row.stats.rtt_ns = Summary{200, 180, 260, 170, 300, 5};
    run.pairs.push_back(row);
    return run.pairs.back();
  }
  // The message of the UsageError either check throws; "" when both pass.
  std::string refusal() const {
    try {
      cli::check_resumed_pairs(run, units, settings, options);
      cli::check_same_homes(run, homes);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  }
};

TEST(ResumeCheck, RowsThatFitTheRunAreTaken) { EXPECT_EQ(EarlierRun().refusal(), ""); }

// A row for a unit that does not exist, or for a home class the homes do not
// have, was carried into the resumed result.
TEST(ResumeCheck, RowsThatDoNotFitTheRunAreRefusedNamingTheLine) {
  struct Case {
    std::string name;
    std::function<void(EarlierRun&)> change;
    std::string mentions;
  };
  const std::vector<Case> cases{
      {"unit_not_on_device", [](EarlierRun& e) { e.add(0, 99, 0, 0); }, "unit 99"},
      {"unit_of_another_device", [](EarlierRun& e) { e.add(0, 100001, 0, 0); }, "unit 100001"},
      {"class_99", [](EarlierRun& e) { e.add(1, 2, 99, 0); }, "home class 99"},
      {"flag_off_the_lines", [](EarlierRun& e) { e.add(1, 2, 0, 4096); }, "first flag"},
      {"flag_in_another_class", [](EarlierRun& e) { e.add(1, 2, 0, 128); }, "first flag"},
      {"second_flag_off_the_lines", [](EarlierRun& e) { e.add(1, 2, 0, 0).stats.second_flag = 1000; }, "second flag"},
      {"pass_past_lines_per_class", [](EarlierRun& e) { e.add(1, 2, 0, 0).stats.pass = 1; }, "pass 1"},
      {"placement_not_measured",
       [](EarlierRun& e) { e.add(1, 2, 0, 0).placement = Placement::SplitLine; }, "placement"},
      {"other_iters", [](EarlierRun& e) { e.add(1, 2, 0, 0).stats.iters = 7; }, "round trips"},
      {"more_samples", [](EarlierRun& e) { e.add(1, 2, 0, 0).stats.rtt_ns.count = 6; }, "samples"},
      {"reversed_unordered", [](EarlierRun& e) { e.add(2, 1, 0, 0); }, "lower unit first"},
      {"flags_on_other_device", [](EarlierRun& e) { e.add(1, 2, 0, 0).stats.flag_device = 3; }, "device 3"},
      {"twice", [](EarlierRun& e) { e.add(0, 1, 0, 0); }, "earlier line"},
      {"via_dsm", [](EarlierRun& e) { e.add(1, 2, 0, 0).via = Path::Dsm; }, "dsm"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EarlierRun earlier;
    c.change(earlier);
    const std::string why = earlier.refusal();
    EXPECT_NE(why.find(c.mentions), std::string::npos) << why;
    EXPECT_NE(why.find("pairs.csv line 4"), std::string::npos) << why;
  }
}

// Home discovery on a CPU may find other classes than the earlier run (1 in
// 300 runs on a VM): refused, in words that fit a CPU (it named "GPU 0").
TEST(ResumeCheck, OtherHomeClassesAreRefusedWithoutNamingAGpuOfOneDevice) {
  EarlierRun earlier;
  earlier.homes.front().classes.class_count = 1;
  earlier.homes.front().classes.line_class = {0, 0, 0, 0};
  const std::string why = earlier.refusal();
  EXPECT_NE(why.find("line 128 was class 1, is 0; 1 class(es) now"), std::string::npos) << why;
  EXPECT_EQ(why.find("GPU"), std::string::npos) << why;
}

// get<int> of 1e300 (undefined behaviour) read homes.json's numbers.
TEST(ResumeCheck, HostileNumbersInHomesJsonAreRefused) {
  for (const char* key : {"device", "class_count"}) {
    for (const nlohmann::json& value : {nlohmann::json(1e300), nlohmann::json(-1e300), nlohmann::json(2.5)}) {
      SCOPED_TRACE(key + (" = " + value.dump()));
      EarlierRun earlier;
      earlier.run.homes[key] = value;
      EXPECT_NE(earlier.refusal().find("homes.json is not as cumap writes it"), std::string::npos);
    }
  }
  EarlierRun earlier;
  earlier.run.homes["line_class"]["1e400"] = 0;
  EXPECT_NE(earlier.refusal().find("homes.json"), std::string::npos);
}

// --resume DIR alone: the options are the earlier run's; those typed must agree.
TEST(ResumeCheck, ResumedOptionsAreTheRecordedOnesAndTypedOnesMustAgree) {
  Options earlier;
  earlier.backend = BackendKind::Cpu;
  earlier.iters = 200000;
  earlier.samples = 3;
  earlier.units_spec = "0-1";
  cli::ResumedRun run;
  run.dir = "D";
  run.meta = earlier_meta(earlier);
  Options given;  // --resume D, nothing else typed
  given.resume_dir = "D";
  given.quiet = true;
  const Options o = cli::resumed_options(run, given, {});
  EXPECT_EQ(o.backend, BackendKind::Cpu);
  EXPECT_EQ(o.iters, 200000);
  EXPECT_EQ(o.samples, 3);
  EXPECT_EQ(o.units_spec, "0-1");
  EXPECT_EQ(o.out_dir, "D");
  EXPECT_TRUE(o.quiet);

  given.samples = 3;  // --samples 3: as recorded
  EXPECT_NO_THROW(cli::resumed_options(run, given, {{"--samples", "samples"}}));
  given.iters = 100;  // --iters 100: not as recorded
  try {
    cli::resumed_options(run, given, {{"--iters", "iters"}, {"--samples", "samples"}});
    ADD_FAILURE() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--resume: --iters: the earlier run used 200000, this one 100");
  }
  // A recorded value the command line would refuse is refused here too.
  run.meta["options"]["samples"] = 0;
  EXPECT_THROW(cli::resumed_options(run, Options{}, {}), UsageError);
  run.meta["options"]["samples"] = 1e300;
  EXPECT_THROW(cli::resumed_options(run, Options{}, {}), UsageError);
  run.meta["options"]["samples"] = 3;
  run.meta["options"]["colormap"] = "jet";
  EXPECT_THROW(cli::resumed_options(run, Options{}, {}), UsageError);
}

}  // namespace
}  // namespace cumap
