// What the CPU backend says about itself before measuring anything.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

TEST(Backend, ListsAtLeastTwoDistinctUnits) {
  const auto backend = make_cpu_backend(DeviceSelection{});
  const auto units = backend->units();
  ASSERT_GE(units.size(), 2u);
  EXPECT_EQ(std::set<int>(units.begin(), units.end()).size(), units.size()) << "unit ids repeat";
  EXPECT_TRUE(std::all_of(units.begin(), units.end(), [](int u) { return u >= 0; }));
}

// An empty "model name" (some virtual machines) threw from substr: the
// backend did not open.
TEST(Backend, NamesItsCpuFromCpuinfoOrSaysItIsUnknown) {
  const auto name = [](const std::string& text) {
    std::istringstream in(text);
    return cpu::cpu_model_name(in);
  };
  EXPECT_EQ(name("processor\t: 0\nmodel name\t: AMD EPYC 9654 96-Core Processor  \n"),
            "AMD EPYC 9654 96-Core Processor");
  EXPECT_EQ(name("model name\t:\nmodel name\t: second\n"), "second");
  EXPECT_EQ(name("model name\t:   \n"), "unknown CPU");
  EXPECT_EQ(name("model name\n"), "unknown CPU");
  EXPECT_EQ(name(""), "unknown CPU");
}

TEST(Backend, DescribesItsDevice) {
  const auto backend = make_cpu_backend(DeviceSelection{});
  const DeviceInfo d = backend->device();
  EXPECT_EQ(d.backend, "cpu");
  EXPECT_EQ(d.unit_name, "cpu");
  EXPECT_FALSE(d.clock_source.empty());
  EXPECT_FALSE(d.name.empty());
  EXPECT_EQ(d.unit_count, static_cast<int>(backend->units().size()));
}

TEST(Backend, TopologyCoversOnlyItsUnits) {
  const auto backend = make_cpu_backend(DeviceSelection{});
  const auto units = backend->units();
  const Topology topo = backend->topology();
  ASSERT_FALSE(topo.groups.empty());
  std::set<int> seen;
  for (const auto& g : topo.groups)
    for (int u : g.units) {
      EXPECT_TRUE(std::find(units.begin(), units.end(), u) != units.end()) << "unit " << u << " not the backend's";
      EXPECT_TRUE(seen.insert(u).second) << "unit " << u << " in two groups";
    }
}

TEST(Backend, OnlyDeviceZeroAndCpuUnits) {
  DeviceSelection other_device;
  other_device.device = 1;
  EXPECT_THROW(make_cpu_backend(other_device), UsageError);
  DeviceSelection wgp;
  wgp.hip_unit = HipUnit::Wgp;
  EXPECT_THROW(make_cpu_backend(wgp), UsageError);
}

TEST(Backend, CapabilitiesOnThisMachine) {
  const auto backend = make_cpu_backend(DeviceSelection{});
  const Capabilities c = backend->capabilities();
  std::set<int> cores;
  for (int u : backend->units()) {
    ASSERT_TRUE(c.exclusive_key.contains(u)) << "cpu " << u << " has no core key";
    cores.insert(c.exclusive_key.at(u));
  }
  EXPECT_EQ(c.max_pairs_per_round, std::max<int>(1, static_cast<int>(cores.size()) / 2));
  EXPECT_EQ(c.default_lines_per_class, 1);
  EXPECT_FALSE(c.l2_persist);
}

// On the fixture tree of two packages x 4 cores x 2 SMT threads, where cpu
// c+8 is the second thread of cpu c's core: siblings share a key, other cpus
// never do (a key per cpu, the guess for a tree without topology, fails here).
TEST(Backend, CapabilitiesKeySiblingsByPhysicalCore) {
  std::vector<int> cpus(16);
  std::iota(cpus.begin(), cpus.end(), 0);
  const auto backend = cpu::make_cpu_backend_on(CUMAP_TEST_DATA_DIR "/sysfs/two_packages", cpus);
  EXPECT_EQ(backend->units(), cpus);
  const Capabilities c = backend->capabilities();
  for (int u : cpus) {
    ASSERT_TRUE(c.exclusive_key.contains(u)) << "cpu " << u << " has no core key";
    for (int v : cpus) {
      if (u == v) continue;
      const bool siblings = u % 8 == v % 8;
      EXPECT_EQ(c.exclusive_key.at(u) == c.exclusive_key.at(v), siblings) << "cpus " << u << " and " << v;
    }
  }
  // 8 physical cores: 4 pairs of spinning threads at once.
  EXPECT_EQ(c.max_pairs_per_round, 4);
  EXPECT_EQ(c.default_lines_per_class, 1);
  EXPECT_FALSE(c.l2_persist);
}

}  // namespace
}  // namespace cumap
