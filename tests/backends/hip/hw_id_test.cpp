#include <gtest/gtest.h>

#include "backends/hip/hw_id.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

TEST(HwId, LayoutFollowsTheArchitecture) {
  EXPECT_EQ(hw_id_layout_for_arch("gfx90a:sramecc+:xnack-"), HwIdLayout::Gfx9);
  EXPECT_EQ(hw_id_layout_for_arch("gfx908"), HwIdLayout::Gfx9);
  EXPECT_EQ(hw_id_layout_for_arch("gfx1030"), HwIdLayout::Gfx10Plus);
  EXPECT_EQ(hw_id_layout_for_arch("gfx1100"), HwIdLayout::Gfx10Plus);
  EXPECT_THROW(hw_id_layout_for_arch("gfx803"), RuntimeFailure);
}

TEST(HwId, DecodesGfx9HwId) {
  // 0x5B27: wave 7 [3:0], SIMD 2 [5:4], pipe 0, CU 11 [11:8], SH 1 [12], SE 2 [15:13].
  const HwLocation loc = decode_hw_id(0x00005B27u, HwIdLayout::Gfx9);
  EXPECT_EQ(loc, (HwLocation{.se = 2, .sa = 1, .cu_or_wgp = 11, .simd = 2, .wave = 7}));
}

TEST(HwId, Gfx90aShaderEngineUsesBit15) {
  // SE 5 needs three bits: 0b101 << 13 = 0xA000. Upper fields (TG, VM, queue,
  // ME) must not leak in.
  const HwLocation loc = decode_hw_id(0xC37AA300u, HwIdLayout::Gfx9);
  EXPECT_EQ(loc.se, 5);
  EXPECT_EQ(loc.sa, 0);
  EXPECT_EQ(loc.cu_or_wgp, 3);
}

TEST(HwId, DecodesGfx10HwId1) {
  // 0xD2611: wave 17 [4:0], SIMD 2 [9:8], WGP 9 [13:10], SA 1 [16], SE 3 [20:18].
  const HwLocation loc = decode_hw_id(0x000D2611u, HwIdLayout::Gfx10Plus);
  EXPECT_EQ(loc, (HwLocation{.se = 3, .sa = 1, .cu_or_wgp = 9, .simd = 2, .wave = 17}));
  EXPECT_EQ(format_location(loc, HwIdLayout::Gfx10Plus), "SE3/SA1/WGP9");
}

TEST(HwId, TopologyGroupsByShaderEngineAndArray) {
  // Units 0..3 on SE0/SA0, SE1/SA0, SE0/SA1, SE1/SA0 (gfx9 encoding).
  const std::vector<std::uint32_t> raw = {0u << 13, 1u << 13 | 1u << 8, 1u << 12, 1u << 13 | 2u << 8};
  const Topology t = hip_topology_from_hw_ids({0, 1, 2, 3}, raw, HwIdLayout::Gfx9);
  EXPECT_EQ(t.source, "hw_id");
  ASSERT_EQ(t.groups.size(), 3u);
  EXPECT_EQ(t.groups[0].name, "SE0/SA0");
  EXPECT_EQ(t.groups[0].units, (std::vector<int>{0}));
  EXPECT_EQ(t.groups[1].name, "SE0/SA1");
  EXPECT_EQ(t.groups[1].units, (std::vector<int>{2}));
  EXPECT_EQ(t.groups[2].name, "SE1/SA0");
  EXPECT_EQ(t.groups[2].units, (std::vector<int>{1, 3}));
  EXPECT_EQ(t.details["register"], "HW_ID");
  EXPECT_EQ(t.details["units"][3]["cu"], 2);
}

TEST(HwIdChecker, ConsistentIdsGiveNoWarnings) {
  HwIdChecker c(HwIdLayout::Gfx9, HipUnit::Cu, "CU");
  c.record(0, 0x0000u);
  c.record(1, 0x0100u);
  c.record(0, 0x0005u);  // same CU, other wave and SIMD: fine
  EXPECT_TRUE(c.warnings().empty());
}

TEST(HwIdChecker, AUnitThatMovesIsReported) {
  HwIdChecker c(HwIdLayout::Gfx9, HipUnit::Cu, "CU");
  c.record(4, 0x0100u);
  c.record(4, 0x0200u);
  c.record(4, 0x0300u);  // one warning per unit, however often it moves
  ASSERT_EQ(c.warnings().size(), 1u);
  EXPECT_NE(c.warnings()[0].find("CU 4 ran on SE0/SA0/CU2 but earlier on SE0/SA0/CU1"), std::string::npos);
}

TEST(HwIdChecker, TwoUnitsOnOneSlotAreReportedWhereTheRegisterResolvesUnits) {
  HwIdChecker gfx9(HwIdLayout::Gfx9, HipUnit::Cu, "CU");
  gfx9.record(2, 0x0300u);
  gfx9.record(7, 0x0300u);
  ASSERT_EQ(gfx9.warnings().size(), 1u);
  EXPECT_NE(gfx9.warnings()[0].find("CUs 2 and 7 both ran on"), std::string::npos);

  // RDNA in CU mode: both CUs of a WGP report the same WGP id, legitimately.
  HwIdChecker rdna(HwIdLayout::Gfx10Plus, HipUnit::Cu, "CU");
  rdna.record(0, 1u << 10);
  rdna.record(1, 1u << 10);
  EXPECT_TRUE(rdna.warnings().empty());
}

}  // namespace
}  // namespace cumap
