#include <string>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "core/topology.hpp"

namespace cumap {
namespace {

Topology two_groups() {
  Topology t;
  t.source = "clusters";
  t.groups = {{"GPC1", {4, 5, 6}}, {"GPC0", {0, 2, 1}}};
  t.details = {{"launches", 12}};
  return t;
}

TEST(Topology, OrderIsGroupByGroupThenTheRestAscending) {
  EXPECT_EQ(topology_order(two_groups(), {9, 0, 1, 2, 5, 7, 6}), (std::vector<int>{5, 6, 0, 2, 1, 7, 9}));
  EXPECT_EQ(topology_order(Topology{}, {3, 1, 2}), (std::vector<int>{1, 2, 3}));
}

TEST(Topology, RestrictDropsUnitsAndEmptyGroups) {
  const Topology r = restrict_topology(two_groups(), {0, 1, 7});
  EXPECT_EQ(r.source, "clusters");
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_EQ(r.groups[0].name, "GPC0");
  EXPECT_EQ(r.groups[0].units, (std::vector<int>{0, 1}));
}

TEST(Topology, JsonRoundTrip) {
  const nlohmann::json j = to_json(two_groups());
  EXPECT_EQ(j["source"], "clusters");
  EXPECT_EQ(j["groups"][0]["units"], nlohmann::json::array({4, 5, 6}));
  const Topology back = topology_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.source, "clusters");
  ASSERT_EQ(back.groups.size(), 2u);
  EXPECT_EQ(back.groups[1].name, "GPC0");
  EXPECT_EQ(back.groups[1].units, (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(back.details["launches"], 12);
}

TEST(Topology, HandWrittenFileWithoutSource) {
  const Topology t = topology_from_json(nlohmann::json::parse(R"({"groups": [{"name": "a", "units": [1, 0]}]})"));
  EXPECT_EQ(t.source, "file");
  EXPECT_EQ(t.groups[0].units, (std::vector<int>{1, 0}));
}

TEST(Topology, JsonErrors) {
  const auto bad = [](const char* text) {
    EXPECT_THROW(topology_from_json(nlohmann::json::parse(text)), UsageError) << text;
  };
  bad("[]");
  bad(R"({"source": "file"})");
  bad(R"({"groups": {}})");
  bad(R"({"groups": [5]})");
  bad(R"({"groups": [{"units": [1]}]})");
  bad(R"({"groups": [{"name": 3, "units": [1]}]})");
  bad(R"({"groups": [{"name": "a"}]})");
  bad(R"({"groups": [{"name": "a", "units": [1.5]}]})");
  bad(R"({"groups": [{"name": "a", "units": ["1"]}]})");
  bad(R"({"groups": [{"name": "a", "units": [-1]}]})");
  bad(R"({"groups": [{"name": "a", "units": [1, 2]}, {"name": "b", "units": [3, 2]}]})");
}

TEST(Topology, DuplicateUnitMessageNamesIt) {
  try {
    topology_from_json(nlohmann::json::parse(R"({"groups": [{"name": "a", "units": [7]}, {"name": "b", "units": [7]}]})"));
    ADD_FAILURE() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("unit 7"), std::string::npos);
  }
}

}  // namespace
}  // namespace cumap
