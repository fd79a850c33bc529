// --units against the unit ids a backend reports (which need not be 0..N-1:
// a cpuset or a partitioned GPU leaves holes).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run/map_run.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

const std::vector<int> kAvailable{0, 2, 4};

TEST(ResolveUnits, EmptySpecMeansEveryAvailableUnit) {
  EXPECT_EQ(resolve_units("", kAvailable, "cpu"), kAvailable);
}

TEST(ResolveUnits, SubsetOfAvailableUnits) {
  EXPECT_EQ(resolve_units("0,4", kAvailable, "cpu"), (std::vector<int>{0, 4}));
  EXPECT_EQ(resolve_units("4,2", kAvailable, "cpu"), (std::vector<int>{2, 4}));
}

TEST(ResolveUnits, UnitInAHoleIsRejectedWithTheAvailableList) {
  try {
    resolve_units("1", kAvailable, "cpu");
    FAIL() << "unit 1 is not available";
  } catch (const UsageError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("0,2,4"), std::string::npos) << msg;
  }
}

TEST(ResolveUnits, RangeOverAHoleIsRejected) {
  EXPECT_THROW(resolve_units("0-2", kAvailable, "cpu"), UsageError);
}

TEST(ResolveUnits, UnitBeyondTheLastIsRejected) {
  EXPECT_THROW(resolve_units("9", kAvailable, "cpu"), UsageError);
}

TEST(ResolveUnits, MalformedSpecIsRejected) {
  EXPECT_THROW(resolve_units("a", kAvailable, "cpu"), UsageError);
}

}  // namespace
}  // namespace cumap
