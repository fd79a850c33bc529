#include <gtest/gtest.h>

#include "backends/hip/cu_mask.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

using Mask = std::vector<std::uint32_t>;

TEST(CuMask, OneBitPerCuInTheFirstWord) {
  EXPECT_EQ(cu_mask_for_unit(HipUnit::Cu, 0, 64), (Mask{0x1u, 0x0u}));
  EXPECT_EQ(cu_mask_for_unit(HipUnit::Cu, 31, 64), (Mask{0x80000000u, 0x0u}));
}

TEST(CuMask, CusPast32UseTheNextWords) {
  EXPECT_EQ(cu_mask_for_unit(HipUnit::Cu, 32, 64), (Mask{0x0u, 0x1u}));
  EXPECT_EQ(cu_mask_for_unit(HipUnit::Cu, 33, 64), (Mask{0x0u, 0x2u}));
  // MI250X GCD: 110 CUs need four words; CU 109 is bit 13 of word 3.
  const Mask m = cu_mask_for_unit(HipUnit::Cu, 109, 110);
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[3], 1u << 13);
  EXPECT_EQ(m[0] | m[1] | m[2], 0u);
}

TEST(CuMask, AWgpCoversBothOfItsCus) {
  EXPECT_EQ(cu_mask_for_unit(HipUnit::Wgp, 0, 80), (Mask{0x3u, 0x0u, 0x0u}));
  EXPECT_EQ(cu_mask_for_unit(HipUnit::Wgp, 15, 80), (Mask{0xC0000000u, 0x0u, 0x0u}));
  EXPECT_EQ(cu_mask_for_unit(HipUnit::Wgp, 16, 80), (Mask{0x0u, 0x3u, 0x0u}));
  EXPECT_EQ(cu_mask_for_unit(HipUnit::Wgp, 39, 80), (Mask{0x0u, 0x0u, 0xC000u}));
}

TEST(CuMask, UnitsOutsideTheDeviceAreUsageErrors) {
  EXPECT_THROW(cu_mask_for_unit(HipUnit::Cu, 64, 64), UsageError);
  EXPECT_THROW(cu_mask_for_unit(HipUnit::Cu, -1, 64), UsageError);
  EXPECT_THROW(cu_mask_for_unit(HipUnit::Wgp, 32, 64), UsageError);
  EXPECT_EQ(hip_unit_count(HipUnit::Wgp, 80), 40);
}

TEST(CuMask, FormatsMostSignificantWordFirst) {
  EXPECT_EQ(format_cu_mask(Mask{0x20u, 0x1u}), "0x00000001:00000020");
}

}  // namespace
}  // namespace cumap
