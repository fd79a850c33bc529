#include <string>

#include <gtest/gtest.h>

#include "core/topology_discovery.hpp"

namespace cumap {
namespace {

const std::filesystem::path kSysfs = std::filesystem::path(CUMAP_TEST_DATA_DIR) / "sysfs";

std::vector<int> range(int first, int last) {
  std::vector<int> v;
  for (int i = first; i <= last; ++i) v.push_back(i);
  return v;
}

TEST(SysfsTopology, GroupsByPackageAndDie) {
  const Topology t = cpu_topology_from_sysfs(kSysfs / "two_packages", range(0, 15));
  EXPECT_EQ(t.source, "sysfs");
  ASSERT_EQ(t.groups.size(), 2u);
  EXPECT_EQ(t.groups[0].name, "pkg0/die0");
  EXPECT_EQ(t.groups[0].units, (std::vector<int>{0, 1, 2, 3, 8, 9, 10, 11}));
  EXPECT_EQ(t.groups[1].name, "pkg1/die0");
  EXPECT_EQ(t.groups[1].units, (std::vector<int>{4, 5, 6, 7, 12, 13, 14, 15}));
}

TEST(SysfsTopology, DetailsDescribeEachCpu) {
  const Topology t = cpu_topology_from_sysfs(kSysfs / "two_packages", range(0, 15));
  const auto& cpus = t.details.at("cpus");
  ASSERT_EQ(cpus.size(), 16u);
  const auto& cpu13 = cpus.at(13);
  EXPECT_EQ(cpu13.at("cpu"), 13);
  EXPECT_EQ(cpu13.at("package"), 1);
  EXPECT_EQ(cpu13.at("die"), 0);
  EXPECT_EQ(cpu13.at("core"), 1);
  EXPECT_EQ(cpu13.at("smt_siblings"), (std::vector<int>{5, 13}));
  EXPECT_EQ(t.details.at("l3_domains"),
            (std::vector<std::vector<int>>{{0, 1, 2, 3, 8, 9, 10, 11}, {4, 5, 6, 7, 12, 13, 14, 15}}));
}

TEST(SysfsTopology, OnlyRequestedCpusAppear) {
  const Topology t = cpu_topology_from_sysfs(kSysfs / "two_packages", {12, 1, 12});
  ASSERT_EQ(t.groups.size(), 2u);
  EXPECT_EQ(t.groups[0].units, (std::vector<int>{1}));
  EXPECT_EQ(t.groups[1].units, (std::vector<int>{12}));
  EXPECT_EQ(t.details.at("cpus").size(), 2u);
}

TEST(SysfsTopology, WithoutDieIdGroupsByPackage) {
  const Topology t = cpu_topology_from_sysfs(kSysfs / "no_die", range(0, 3));
  EXPECT_EQ(t.source, "sysfs");
  ASSERT_EQ(t.groups.size(), 1u);
  EXPECT_EQ(t.groups[0].name, "pkg0");
  EXPECT_EQ(t.groups[0].units, range(0, 3));
  // core_cpus_list stands in for thread_siblings_list.
  EXPECT_EQ(t.details.at("cpus").at(2).at("smt_siblings"), (std::vector<int>{2}));
  EXPECT_TRUE(t.details.at("cpus").at(2).at("die").is_null());
  EXPECT_FALSE(t.details.contains("l3_domains"));
}

TEST(SysfsTopology, MissingTopologyFilesFallBackToOneGroup) {
  const Topology t = cpu_topology_from_sysfs(kSysfs / "no_topology", {1, 0});
  EXPECT_EQ(t.source, "none");
  ASSERT_EQ(t.groups.size(), 1u);
  EXPECT_EQ(t.groups[0].name, "all");
  EXPECT_EQ(t.groups[0].units, (std::vector<int>{0, 1}));
  EXPECT_NE(t.details.at("reason").get<std::string>().find("physical_package_id"), std::string::npos);
}

TEST(SysfsTopology, MissingRootDoesNotThrow) {
  Topology t;
  EXPECT_NO_THROW(t = cpu_topology_from_sysfs(kSysfs / "does_not_exist", {0, 1, 2}));
  ASSERT_EQ(t.groups.size(), 1u);
  EXPECT_EQ(t.groups[0].units, range(0, 2));
}

}  // namespace
}  // namespace cumap
