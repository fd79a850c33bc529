// cumap::place over the fake chip of tests/support: side = unit parity, a
// line's home = (line / lines_per_home) % classes, near 150 ns, far 250.
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cumap/place.hpp"
#include "fake_chip_backend.hpp"
#include "place/chip_state.hpp"

namespace cumap::place {
namespace {

Options small() {
  Options o;
  o.home_lines = 128;
  return o;
}

std::shared_ptr<test::FakeChipBackend> fake(test::FakeChip spec = {}) {
  return std::make_shared<test::FakeChipBackend>(spec);
}

const void* at(std::uintptr_t address) { return reinterpret_cast<const void*>(address); }

TEST(PlaceChip, SidesClassesAndLatenciesComeFromHomeDiscovery) {
  const Chip chip = chip_on(fake(), 0, small());
  EXPECT_EQ(chip.class_count(), 2);
  EXPECT_EQ(chip.sms(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  for (int sm = 0; sm < 8; ++sm) EXPECT_EQ(chip.side_of(sm), sm % 2) << sm;
  EXPECT_EQ(chip.side_of(8), -1);
  EXPECT_DOUBLE_EQ(chip.latency_ns(2, 0), 150.0);
  EXPECT_DOUBLE_EQ(chip.latency_ns(2, 1), 250.0);
  EXPECT_THROW((void)chip.latency_ns(9, 0), Error);
  EXPECT_EQ(chip.side_table(), (std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1}));
}

TEST(PlaceChip, EveryLineOfTheCallersMemoryGetsItsClass) {
  auto backend = fake();
  const Chip chip = chip_on(backend, 0, small());
  // 64 lines, misaligned start: the range widens to whole lines.
  const LinePool pool = chip.classify(at(0x10000 + 4), 64 * 128 - 4);
  ASSERT_EQ(pool.lines().size(), 64u);
  EXPECT_EQ(pool.lines().front().address, 0x10000u);
  for (std::size_t l = 0; l < 64; ++l) EXPECT_EQ(pool.lines()[l].home_class, static_cast<int>(l / 32) % 2) << l;
  EXPECT_TRUE(pool.homes_matter());
  EXPECT_EQ(pool.near(0).size(), 32u);
  for (const Line& l : pool.near(1)) EXPECT_EQ(l.home_class, 1);
  EXPECT_THROW((void)chip.classify(nullptr, 128), Error);
}

TEST(PlaceLinePool, EachFlagGetsTheCheapestClassLineNotYetHandedOut) {
  const Chip chip = chip_on(fake(), 0, small());
  LinePool pool = chip.classify(at(0x20000), 64 * 128);
  const std::vector<int> side0{0, 2, 4};
  EXPECT_DOUBLE_EQ(pool.predicted_ns(side0, 0), 450.0);
  EXPECT_DOUBLE_EQ(pool.predicted_ns(side0, 1), 750.0);
  std::set<std::uintptr_t> handed;
  for (int i = 0; i < 32; ++i) {
    const Line l = pool.for_units(side0);
    EXPECT_EQ(l.home_class, 0);
    EXPECT_TRUE(handed.insert(l.address).second) << "a line handed out twice";
  }
  EXPECT_EQ(pool.left(0), 0u);
  EXPECT_EQ(pool.for_units(side0).home_class, 1) << "the near class used up: the next cheapest";
  EXPECT_EQ(pool.for_pair(1, 3).home_class, 1);
  const std::vector<int> across{0, 1};
  EXPECT_DOUBLE_EQ(pool.predicted_ns(across, 0), pool.predicted_ns(across, 1)) << "one near and one far either way";
  while (pool.left(1) > 0) (void)pool.take(1);
  EXPECT_THROW((void)pool.for_pair(1, 3), Error);
}

TEST(PlaceLinePool, OneHomeClassHandsOutAnyLineAndTimesNone) {
  test::FakeChip one;
  one.classes = 1;
  auto backend = fake(one);
  const Chip chip = chip_on(backend, 0, small());
  const int probes = backend->probe_calls;
  LinePool pool = chip.classify(at(0x30000), 16 * 128);
  EXPECT_EQ(backend->probe_calls, probes) << "nothing to tell the lines apart by";
  EXPECT_FALSE(pool.homes_matter());
  EXPECT_EQ(pool.near(1).size(), 16u);
  EXPECT_EQ(pool.for_pair(0, 1).home_class, 0);
}

// The committed H200 run (plots/h200): its sides on a chip of its serial;
// another chip's run is refused with one error that says why.
TEST(PlaceChip, ASavedRunIsTakenOnItsOwnChipOnly) {
  const std::string run = CUMAP_PLOTS_DIR "/h200";
  const nlohmann::json meta = nlohmann::json::parse(std::ifstream(run + "/meta.json"));
  const nlohmann::json homes = nlohmann::json::parse(std::ifstream(run + "/homes.json"));
  test::FakeChip h200;
  h200.units = 132;
  h200.serials = {meta["device"]["serial"].get<std::string>()};
  const Chip chip = chip_from_run(fake(h200), 0, run);
  const auto units = homes["units"].get<std::vector<int>>();
  const auto sides = homes["unit_side"].get<std::vector<int>>();
  ASSERT_EQ(units.size(), 132u);
  for (std::size_t u = 0; u < units.size(); ++u) EXPECT_EQ(chip.side_of(units[u]), sides[u]) << units[u];
  EXPECT_DOUBLE_EQ(chip.latency_ns(units[5], 1), homes["classes"][1]["median_ns_by_unit"][5].get<double>());
  EXPECT_EQ(chip.serial(), h200.serials.front());

  test::FakeChip other = h200;
  other.serials = {"1650000000000"};
  try {
    (void)chip_from_run(fake(other), 0, run);
    FAIL() << "another chip's run was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("belongs to one chip"), std::string::npos) << e.what();
  }
  test::FakeChip unknown = h200;
  unknown.serials = {""};
  EXPECT_THROW((void)chip_from_run(fake(unknown), 0, run), Error) << "no serial: nothing to check the run against";
  EXPECT_THROW((void)chip_from_run(fake(h200), 0, run + "/no-such-run"), Error);
}

// Two chips joined by a link that costs 40 ns more for side-1 units and
// 20 ns less for class-1 lines: a flag two chips share goes where the two
// SMs pay least, by the home tables and the remote tables.
TEST(PlaceSystem, AFlagTwoChipsShareGoesWhereItsTwoSmsPayLeast) {
  test::FakeChip two;
  two.devices = 2;
  two.link_ns = 900;
  two.link_side_step_ns = 40;
  two.link_class_step_ns = -20;
  const System system = system_on(fake(two), {0, 1}, small());
  EXPECT_DOUBLE_EQ(system.latency_ns({0, 2}, 0, 0), 150.0) << "on its own chip";
  EXPECT_DOUBLE_EQ(system.latency_ns({1, 2}, 0, 0), 900.0) << "side 0, class 0, over the link";
  EXPECT_DOUBLE_EQ(system.latency_ns({1, 3}, 0, 1), 900.0 + 40 - 20);
  LinePool on0 = system.chip(0).classify(at(0x40000), 64 * 128);
  LinePool on1 = system.chip(1).classify(at(0x50000), 64 * 128);
  const std::vector<LinePool*> pools{&on0, &on1};
  // SM 2 of chip 0 (side 0) and SM 1 of chip 1 (side 1). On chip 0: class 0
  // 150 + 940, class 1 250 + 920; on chip 1: class 0 900 + 250, class 1
  // 880 + 150, the least.
  const Line l = system.for_pair(pools, {0, 2}, {1, 1});
  EXPECT_EQ(l.gpu, 1);
  EXPECT_EQ(l.home_class, 1);
  EXPECT_DOUBLE_EQ(system.latency_ns({0, 2}, 1, 1) + system.latency_ns({1, 1}, 1, 1), 880.0 + 150.0);
}

}  // namespace
}  // namespace cumap::place
