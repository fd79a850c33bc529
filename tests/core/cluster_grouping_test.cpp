#include <gtest/gtest.h>

#include "core/topology_discovery.hpp"

namespace cumap {
namespace {

std::vector<int> units_of(const Topology& t, std::size_t g) { return t.groups.at(g).units; }

TEST(CoResidency, OverlappingClustersMergeTransitively) {
  // Recorded like a launch log: {0,1} and {1,2} share unit 1, {2,3} then joins.
  const std::vector<std::vector<int>> launches = {{0, 1}, {5, 6}, {1, 2}, {3, 2}, {6, 5}};
  const Topology t = groups_from_co_residency(launches, {0, 1, 2, 3, 4, 5, 6, 7}, "GPC");
  EXPECT_EQ(t.source, "clusters");
  ASSERT_EQ(t.groups.size(), 4u);
  EXPECT_EQ(t.groups[0].name, "GPC0");
  EXPECT_EQ(units_of(t, 0), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(t.groups[1].name, "GPC1");
  EXPECT_EQ(units_of(t, 1), (std::vector<int>{4}));
  EXPECT_EQ(units_of(t, 2), (std::vector<int>{5, 6}));
  EXPECT_EQ(units_of(t, 3), (std::vector<int>{7}));
}

// Two units seen together only in clusters of two share a group, but which
// one is not known: they are a "pair", and the groups keep their numbers.
TEST(CoResidency, TwoUnitsSeenOnlyInClustersOfTwoAreAPairNotAGroup) {
  const std::vector<std::vector<int>> launches = {{0, 1, 2, 3}, {4, 5}, {6, 7, 8}, {8, 9}, {10, 11}, {0, 1}};
  const Topology t = groups_from_co_residency(launches, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "GPC");
  ASSERT_EQ(t.groups.size(), 4u);
  EXPECT_EQ(t.groups[0].name, "GPC0");
  EXPECT_EQ(t.groups[1].name, "pair0");
  EXPECT_EQ(units_of(t, 1), (std::vector<int>{4, 5}));
  EXPECT_EQ(t.groups[2].name, "GPC1");  // 6..9: joined through a cluster of three
  EXPECT_EQ(t.groups[3].name, "pair1");
  EXPECT_EQ(t.details.at("seen_only_in_clusters_of_two"), (std::vector<int>{4, 5, 10, 11}));
}

TEST(CoResidency, DetailsReportLaunchesSingletonsAndSizes) {
  const std::vector<std::vector<int>> launches = {{0, 1}, {2}, {0, 1}};
  const Topology t = groups_from_co_residency(launches, {0, 1, 2, 3}, "GPC");
  EXPECT_EQ(t.details.at("clusters_observed"), 3);
  // 2 was only ever alone, 3 never seen: both stand alone and say so.
  EXPECT_EQ(t.details.at("singletons"), (std::vector<int>{2, 3}));
  EXPECT_EQ(t.details.at("group_sizes"), (std::vector<int>{2, 1, 1}));
}

TEST(CoResidency, IdsOutsideUnitsAreIgnoredNotMergedThrough) {
  // 100 is not mapped: it must not chain 6 and 7 together.
  const std::vector<std::vector<int>> launches = {{6, 100}, {100, 7}, {-1, 0}};
  const Topology t = groups_from_co_residency(launches, {0, 6, 7}, "SE");
  ASSERT_EQ(t.groups.size(), 3u);
  for (const auto& g : t.groups) EXPECT_EQ(g.units.size(), 1u);
  EXPECT_EQ(t.details.at("singletons"), (std::vector<int>{0, 6, 7}));
}

TEST(CoResidency, GroupsOrderedBySmallestUnitWithUnitsAscending) {
  const std::vector<std::vector<int>> launches = {{11, 10}, {5, 0}};
  const Topology t = groups_from_co_residency(launches, {11, 5, 10, 3, 0}, "SA");
  ASSERT_EQ(t.groups.size(), 3u);
  // Seen only in clusters of two: pairs, numbered apart from the groups.
  EXPECT_EQ(t.groups[0].name, "pair0");
  EXPECT_EQ(units_of(t, 0), (std::vector<int>{0, 5}));
  EXPECT_EQ(t.groups[1].name, "SA0");
  EXPECT_EQ(units_of(t, 1), (std::vector<int>{3}));
  EXPECT_EQ(t.groups[2].name, "pair1");
  EXPECT_EQ(units_of(t, 2), (std::vector<int>{10, 11}));
}

TEST(CoResidency, NoLaunchesGivesAllSingletons) {
  const Topology t = groups_from_co_residency({}, {2, 1}, "GPC");
  ASSERT_EQ(t.groups.size(), 2u);
  EXPECT_EQ(t.details.at("clusters_observed"), 0);
  EXPECT_EQ(t.details.at("singletons"), (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace cumap
