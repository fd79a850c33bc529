#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "core/units.hpp"

namespace cumap {
namespace {

// The message of the UsageError that parse_unit_list throws, or "" if none.
std::string usage_error(const std::string& spec, int unit_count) {
  try {
    parse_unit_list(spec, unit_count);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(UnitList, ParsesIdsAndRanges) {
  EXPECT_EQ(parse_unit_list("0-3,6,8-9", 16), (std::vector<int>{0, 1, 2, 3, 6, 8, 9}));
}

TEST(UnitList, SortsDeduplicatesAndToleratesWhitespace) {
  EXPECT_EQ(parse_unit_list(" 9 , 2-4,3 ,\t0 - 1 ", 10), (std::vector<int>{0, 1, 2, 3, 4, 9}));
}

TEST(UnitList, SingleRangeOfOne) { EXPECT_EQ(parse_unit_list("5-5", 6), (std::vector<int>{5})); }

TEST(UnitList, RejectsEmptySpec) {
  EXPECT_THROW(parse_unit_list("", 8), UsageError);
  EXPECT_THROW(parse_unit_list("   ", 8), UsageError);
}

TEST(UnitList, RejectsEmptyToken) {
  EXPECT_NE(usage_error("1,,2", 8).find("1,,2"), std::string::npos);
  EXPECT_THROW(parse_unit_list("1,2,", 8), UsageError);
}

TEST(UnitList, RejectsReversedRange) { EXPECT_NE(usage_error("7-3", 8).find("7-3"), std::string::npos); }

TEST(UnitList, RejectsNonNumbers) {
  EXPECT_NE(usage_error("1,abc", 8).find("abc"), std::string::npos);
  EXPECT_NE(usage_error("2x", 8).find("2x"), std::string::npos);
  EXPECT_THROW(parse_unit_list("1.5", 8), UsageError);
  EXPECT_THROW(parse_unit_list("3-", 8), UsageError);
}

TEST(UnitList, RejectsNegative) {
  EXPECT_NE(usage_error("-3", 8).find("-3"), std::string::npos);
  EXPECT_THROW(parse_unit_list("1--3", 8), UsageError);
}

TEST(UnitList, RejectsOutOfRangeAndSaysTheValidRange) {
  EXPECT_EQ(usage_error("140", 132), "--units: 140 is out of range: this device has units 0-131");
  EXPECT_NE(usage_error("0-132", 132).find("132 is out of range"), std::string::npos);
  EXPECT_THROW(parse_unit_list("99999999999999999999", 132), UsageError);
}

TEST(UnitList, FormatsIntoRanges) {
  EXPECT_EQ(format_unit_list({0, 1, 2, 5}), "0-2,5");
  EXPECT_EQ(format_unit_list({7}), "7");
  EXPECT_EQ(format_unit_list({}), "");
  EXPECT_EQ(format_unit_list({3, 1, 2, 10, 11}), "1-3,10-11");
}

TEST(UnitList, FormatThenParseRoundTrips) {
  const std::vector<int> units{0, 1, 2, 3, 8, 10, 11, 12, 31};
  EXPECT_EQ(parse_unit_list(format_unit_list(units), 32), units);
}

TEST(UnitIds, FilesNameUnitsAcrossGpusByGpuAndSm) {
  EXPECT_FALSE(ids_span_devices({0, 5, 131}));
  EXPECT_TRUE(ids_span_devices({0, 100005}));
  EXPECT_EQ(format_unit_id(5, false), "5");
  EXPECT_EQ(format_unit_id(5, true), "g0.5");
  EXPECT_EQ(format_unit_id(100131, true), "g1.131");
  EXPECT_EQ(parse_unit_id("g1.131"), 100131);
  EXPECT_EQ(parse_unit_id("g0.5"), 5);
  EXPECT_EQ(parse_unit_id(" 17 "), 17);
  for (const char* bad : {"g1", "g.5", "gx.5", "g1.x", "g1.5.", "-3", "g-1.5", "", "g1.100000"})
    EXPECT_FALSE(parse_unit_id(bad).has_value()) << bad;
}

TEST(UnitIds, UnitListsAcrossGpus) {
  const std::map<int, int> counts{{0, 132}, {1, 132}};
  EXPECT_EQ(parse_device_unit_list("0-1", counts), (std::vector<int>{0, 1, 100000, 100001}));
  EXPECT_EQ(parse_device_unit_list("g1.0-1,g0.7", counts), (std::vector<int>{7, 100000, 100001}));
  EXPECT_THROW(parse_device_unit_list("g2.0", counts), UsageError);
  EXPECT_THROW(parse_device_unit_list("g1.132", counts), UsageError);
  EXPECT_THROW(parse_device_unit_list("g1", counts), UsageError);
  EXPECT_THROW(parse_device_unit_list("", counts), UsageError);
}

// --devices names each GPU once: parse_unit_list would fold "0,0" into one.
TEST(FirstRepeatedId, FindsAnIdNamedTwiceAlsoInsideRanges) {
  EXPECT_EQ(first_repeated_id("0,0"), 0);
  EXPECT_EQ(first_repeated_id("0-3,2"), 2);
  EXPECT_EQ(first_repeated_id("4, 1-2 ,2-5"), 2);
  EXPECT_EQ(first_repeated_id("0,1"), std::nullopt);
  EXPECT_EQ(first_repeated_id("0-1,2-3"), std::nullopt);
  EXPECT_EQ(first_repeated_id("all"), std::nullopt) << "not a list: left to the caller";
  EXPECT_EQ(first_repeated_id("x,x"), std::nullopt) << "not ids: parse_unit_list names them";
}

}  // namespace
}  // namespace cumap
