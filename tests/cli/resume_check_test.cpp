#include <gtest/gtest.h>

#include "cumap/result.hpp"
#include "report/meta_json.hpp"
#include "cli/resume_check.hpp"

namespace cumap {
namespace {

// meta.json of an earlier run with options `o`, as it reads back from disk.
nlohmann::json earlier_meta(const Options& o) {
  MapResult result;
  result.run.tool_version = "test";
  result.settings.options = to_json(o);
  return nlohmann::json::parse(make_meta(result).dump());
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

}  // namespace
}  // namespace cumap
