#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "sanitizer_build.hpp"
#include "core/homes.hpp"
#include "core/topology_discovery.hpp"

namespace cumap {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// latency(u, l) = base + unit_offset(u) + slice_offset(l) + (near ? 0 : far_extra) + noise,
// with "near" when the unit's side is the line's class.
struct Chip {
  int units = 132;
  int lines = 1024;
  std::function<int(int)> side_of_unit = [](int) { return 0; };
  std::function<int(int)> class_of_line = [](int) { return 0; };
  double base_ns = 180.0;
  double far_extra_ns = 115.0;
  double unit_offset_ns = 20.0;   // uniform 0..this per unit
  double slice_offset_ns = 30.0;  // uniform 0..this per line
  double noise_ns = 8.0;          // normal sigma per cell
  // Lines of one class still differ a little by L2 slice, and not only by a
  // constant: a slice is a bit nearer some units. Per (slice, unit), uniform
  // 0..this; `slices` slices, line l in slice l % slices.
  double slice_unit_ns = 0.0;
  int slices = 16;
  unsigned seed = 1;

  LineLatencyTable table() const {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit_off(0.0, unit_offset_ns), slice_off(0.0, slice_offset_ns);
    std::normal_distribution<double> noise(0.0, noise_ns);
    std::vector<double> a(static_cast<std::size_t>(units)), b(static_cast<std::size_t>(lines));
    for (double& x : a) x = unit_off(rng);
    for (double& x : b) x = slice_off(rng);
    std::uniform_real_distribution<double> slice_unit(0.0, slice_unit_ns);
    std::vector<double> su(static_cast<std::size_t>(slices * units));
    for (double& x : su) x = slice_unit(rng);
    LineLatencyTable t;
    for (int u = 0; u < units; ++u) t.units.push_back(UnitRef{0, u});
    for (int l = 0; l < lines; ++l) t.lines.push_back(static_cast<std::uint64_t>(l) * 128);
    for (int u = 0; u < units; ++u)
      for (int l = 0; l < lines; ++l) {
        const bool near = side_of_unit(u) == class_of_line(l);
        t.ns.push_back(base_ns + a[static_cast<std::size_t>(u)] + b[static_cast<std::size_t>(l)] +
                       su[static_cast<std::size_t>((l % slices) * units + u)] + (near ? 0.0 : far_extra_ns) +
                       noise(rng));
      }
    t.cycles.assign(t.ns.size(), kNan);
    return t;
  }
  std::vector<int> true_line_classes() const {
    std::vector<int> c;
    for (int l = 0; l < lines; ++l) c.push_back(class_of_line(l));
    return c;
  }
};

// An H100: 66/66 SMs (interleaved, as the sides are not SM-id ranges), the
// home alternating every 32 lines (4 KiB).
Chip h100_like() {
  Chip chip;
  chip.side_of_unit = [](int u) { return (u / 2) % 2; };
  chip.class_of_line = [](int l) { return (l / 32) % 2; };
  return chip;
}

TEST(ClassifyLines, TwoHalvesOfAnH100) {
  const Chip chip = h100_like();
  const LineLatencyTable t = chip.table();
  const auto start = std::chrono::steady_clock::now();
  const HomeClasses h = classify_lines(t);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("classify_seconds", std::to_string(seconds));
  // About 0.1 s here; generous for a loaded machine. A sanitized build (-O0,
  // shadow memory) takes 100x longer and says nothing about this bound.
  if (!CUMAP_ASAN_BUILD) {
    EXPECT_LT(seconds, 3.0);
  }

  ASSERT_EQ(h.class_count, 2);
  ASSERT_EQ(h.line_class.size(), 1024u);
  // Unit 0 is on the chip's side 0, so its classes and sides keep their numbers.
  for (int l = 0; l < chip.lines; ++l) EXPECT_EQ(h.line_class[static_cast<std::size_t>(l)], chip.class_of_line(l)) << l;
  for (int u = 0; u < chip.units; ++u) EXPECT_EQ(h.unit_side[static_cast<std::size_t>(u)], chip.side_of_unit(u)) << u;
  EXPECT_GE(h.separation, 4.0);
  ASSERT_EQ(h.class_unit_ns.size(), 2u);
  // Unit 0 is on side 0: ~180+10+15 near, ~115 more far.
  EXPECT_NEAR(h.class_unit_ns[1][0] - h.class_unit_ns[0][0], 115.0, 10.0);
  EXPECT_EQ(h.lines_of(1, t.lines).size(), 512u);
  EXPECT_EQ(h.lines_of(1, t.lines).front(), 32u * 128u);
}

// A second probe (same homes and sides; other offsets and noise) finds each line's class
// again from the first probe's class profiles, even with a missing cell.
TEST(NearestClasses, ASecondProbeFallsInTheFirstProbesClasses) {
  Chip chip = h100_like();
  chip.lines = 256;
  const HomeClasses h = classify_lines(chip.table());
  ASSERT_EQ(h.class_count, 2);
  chip.seed = 2;
  LineLatencyTable again = chip.table();
  again.ns[5 * again.lines.size() + 7] = kNan;
  const std::vector<int> found = nearest_classes(h, again);
  ASSERT_EQ(found.size(), 256u);
  for (int l = 0; l < chip.lines; ++l) EXPECT_EQ(found[static_cast<std::size_t>(l)], chip.class_of_line(l)) << l;
}

// Side 0 holds the lowest unit id and class 0 is the class it is near, however
// many lines each class has and whichever class holds the lowest line offset.
TEST(ClassifyLines, ClassZeroIsTheClassTheLowestUnitIsNear) {
  Chip chip = h100_like();
  chip.lines = 256;
  // The chip's class 1 holds 3/4 of the lines and line 0; unit 0 is near class 0.
  chip.class_of_line = [](int l) { return (l / 32) % 4 == 3 ? 0 : 1; };
  const HomeClasses h = classify_lines(chip.table());
  ASSERT_EQ(h.class_count, 2);
  for (int l = 0; l < chip.lines; ++l) EXPECT_EQ(h.line_class[static_cast<std::size_t>(l)], chip.class_of_line(l)) << l;
  EXPECT_EQ(h.unit_side[0], 0);
  EXPECT_EQ(h.unit_side[2], 1);
}

// Another flag offset probes other lines: here the lines' homes are shifted
// by one class, and unit 0 is on the chip's "second" side. The labels follow
// the units, so both runs name every unit's side, and the class of the lines
// near a unit, the same.
TEST(ClassifyLines, LabelsFollowTheUnitsNotTheLines) {
  for (int shift : {0, 1})
    for (int first_side : {0, 1}) {
      Chip chip = h100_like();
      chip.lines = 256;
      chip.side_of_unit = [first_side](int u) { return (u / 2 + first_side) % 2; };
      chip.class_of_line = [shift](int l) { return (l / 32 + shift) % 2; };
      const HomeClasses h = classify_lines(chip.table());
      ASSERT_EQ(h.class_count, 2);
      for (int u = 0; u < chip.units; ++u)
        EXPECT_EQ(h.unit_side[static_cast<std::size_t>(u)], (u / 2) % 2) << "unit " << u << ", shift " << shift;
      // A line is labelled with the side of the units near it.
      for (int l = 0; l < chip.lines; ++l) {
        const int near_side_label = (chip.class_of_line(l) - first_side + 2) % 2;
        EXPECT_EQ(h.line_class[static_cast<std::size_t>(l)], near_side_label) << "line " << l << ", shift " << shift;
      }
      // class_unit_ns follows the labels: unit 0 is near class 0.
      EXPECT_LT(h.class_unit_ns[0][0] + 50.0, h.class_unit_ns[1][0]);
    }
}

TEST(ClassifyLines, EightXcdsOfAnMi300) {
  Chip chip;
  chip.units = 304;  // 8 XCDs x 38 CUs
  chip.lines = 512;
  chip.side_of_unit = [](int u) { return u / 38; };
  chip.class_of_line = [](int l) { return (l / 8) % 8; };
  chip.far_extra_ns = 150.0;
  chip.noise_ns = 10.0;
  const HomeClasses h = classify_lines(chip.table());
  ASSERT_EQ(h.class_count, 8);
  EXPECT_DOUBLE_EQ(adjusted_rand_index(h.line_class, chip.true_line_classes()), 1.0);
  // Each side is the class of its lines: a unit's side labels the same lines as its XCD.
  for (int u = 0; u < chip.units; ++u) {
    const int side = h.unit_side[static_cast<std::size_t>(u)];
    const int xcd_line = (u / 38) * 8;  // first line homed on this unit's XCD
    EXPECT_EQ(side, h.line_class[static_cast<std::size_t>(xcd_line)]) << u;
    EXPECT_EQ(side, u / 38) << u;  // canonical: numbered by the lowest CU near each class
  }
  EXPECT_GE(h.separation, 4.0);
}

// --home-lines goes to 65536, but the clustering tree needs the distance of
// every two lines (65536 lines: 32 GiB). Past 4096 lines it is built from a
// sample of them, the other lines join the nearest class: every line still
// gets its class, in bounded time, and eight classes of 1/8 of the lines
// each are all found.
TEST(ClassifyLines, ManyLinesAreClassifiedFromASample) {
  Chip chip;
  chip.units = 32;  // 8 XCDs x 4 CUs
  chip.lines = 20000;
  chip.side_of_unit = [](int u) { return u / 4; };
  chip.class_of_line = [](int l) { return (l / 8) % 8; };
  chip.far_extra_ns = 150.0;
  chip.noise_ns = 10.0;
  const LineLatencyTable t = chip.table();
  const auto start = std::chrono::steady_clock::now();
  const HomeClasses h = classify_lines(t);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(h.class_count, 8);
  ASSERT_EQ(h.line_class.size(), 20000u);
  EXPECT_DOUBLE_EQ(adjusted_rand_index(h.line_class, chip.true_line_classes()), 1.0);
  for (int u = 0; u < chip.units; ++u) EXPECT_EQ(h.unit_side[static_cast<std::size_t>(u)], u / 4) << u;
  // All 20000 lines' distances took 3 GiB and tens of seconds; the sample's
  // take about a second here.
  if (!CUMAP_ASAN_BUILD) {
    EXPECT_LT(seconds, 20.0);
  }
  // The same table gives the same classes (the sample is drawn from a fixed seed).
  EXPECT_EQ(classify_lines(t).line_class, h.line_class);
}

TEST(ClassifyLines, NoiseAloneIsOneClass) {
  Chip cpu;
  cpu.units = 16;
  cpu.lines = 256;
  cpu.base_ns = 60.0;
  cpu.noise_ns = 5.0;
  for (unsigned seed : {1u, 2u, 3u}) {
    cpu.seed = seed;
    const HomeClasses h = classify_lines(cpu.table());
    EXPECT_EQ(h.class_count, 1) << "seed " << seed;
    EXPECT_TRUE(std::isinf(h.separation));
    for (int c : h.line_class) EXPECT_EQ(c, 0);
    for (int s : h.unit_side) EXPECT_EQ(s, 0);
    ASSERT_EQ(h.class_unit_ns.size(), 1u);
    EXPECT_NEAR(h.class_unit_ns[0][3], 60.0 + 10.0 + 15.0, 15.0);
  }
}

TEST(ClassifyLines, SliceOffsetsAreNotClasses) {
  // Sixteen slices, 0..120 ns apart, much more than the noise: each line's
  // own offset, the same for every unit, so no class.
  Chip one;
  one.units = 64;
  one.lines = 512;
  one.slice_offset_ns = 120.0;
  EXPECT_EQ(classify_lines(one.table()).class_count, 1);

  Chip two = h100_like();
  two.lines = 512;
  two.slice_offset_ns = 120.0;  // larger than the near/far difference
  const HomeClasses h = classify_lines(two.table());
  ASSERT_EQ(h.class_count, 2);
  EXPECT_DOUBLE_EQ(adjusted_rand_index(h.line_class, two.true_line_classes()), 1.0);
}

TEST(ClassifyLines, SliceNearnessWithinAClassIsNotAClass) {
  Chip chip = h100_like();
  chip.lines = 512;
  chip.slice_unit_ns = 12.0;  // slices differ per unit, an order below the halves
  const HomeClasses h = classify_lines(chip.table());
  EXPECT_EQ(h.class_count, 2);
  EXPECT_DOUBLE_EQ(adjusted_rand_index(h.line_class, chip.true_line_classes()), 1.0);
}

TEST(ClassifyLines, SurvivesMissingCellsAndAGlitch) {
  Chip chip = h100_like();
  chip.lines = 512;
  LineLatencyTable t = chip.table();
  std::mt19937 rng(7);
  std::bernoulli_distribution missing(0.05);
  for (double& v : t.ns)
    if (missing(rng)) v = kNan;
  const std::size_t lines = t.lines.size();
  for (std::size_t u = 0; u < t.units.size(); ++u) t.ns[u * lines + 100] = kNan;  // a line never measured
  for (std::size_t l = 0; l < lines; ++l) t.ns[5 * lines + l] = kNan;           // a unit that never ran
  t.ns[9 * lines + 200] = 3000.0;  // one probe hit by an interrupt
  t.ns[9 * lines + 201] = 2500.0;

  const HomeClasses h = classify_lines(t);
  ASSERT_EQ(h.class_count, 2);
  for (std::size_t l = 0; l < lines; ++l) {
    if (l == 100) continue;  // no data: any class
    EXPECT_EQ(h.line_class[l], chip.class_of_line(static_cast<int>(l))) << l;
  }
  for (int u = 0; u < chip.units; ++u) {
    if (u == 5) continue;
    EXPECT_EQ(h.unit_side[static_cast<std::size_t>(u)], chip.side_of_unit(u)) << u;
  }
  EXPECT_TRUE(std::isnan(h.class_unit_ns[0][5]));
}

TEST(ClassifyLines, RespectsMaxClasses) {
  Chip chip;
  chip.units = 64;
  chip.lines = 256;
  chip.side_of_unit = [](int u) { return u / 16; };
  chip.class_of_line = [](int l) { return l % 4; };
  EXPECT_EQ(classify_lines(chip.table()).class_count, 4);
  ClassifyOptions two;
  two.max_classes = 2;
  EXPECT_LE(classify_lines(chip.table(), two).class_count, 2);
}

TEST(ClassifyLines, RejectsAMisshapenTable) {
  LineLatencyTable t;
  t.units = {UnitRef{0, 0}, UnitRef{0, 1}};
  t.lines = {0, 128};
  t.ns = {1, 2, 3};
  EXPECT_THROW(classify_lines(t), std::invalid_argument);
}

}  // namespace
}  // namespace cumap
