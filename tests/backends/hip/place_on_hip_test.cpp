// cumap::place over the HIP backend and its simulated runtime (no AMD GPU
// has run it): the same API classifies a program's hipMalloc memory.
#include <gtest/gtest.h>

#include "backends/hip/hip_backend.hpp"
#include "cumap/place.hpp"
#include "fake_hip_runtime.hpp"
#include "place/chip_state.hpp"

namespace cumap::place {
namespace {

TEST(PlaceOnHip, AProgramsOwnMemoryGetsTheClassOfEachLine) {
  testing::FakeHipConfig cfg;
  cfg.cu_count = 8;
  cfg.program_memory = {{0x7f0000000000, 16 * 128}};
  std::shared_ptr<Backend> backend = make_hip_backend_with_runtime(std::make_unique<testing::FakeHipRuntime>(cfg), {});
  Options options;
  options.home_lines = 32;
  const Chip chip = chip_on(backend, 0, options);
  ASSERT_EQ(chip.class_count(), 2);
  // The fake's even CUs are near even lines: one side each.
  EXPECT_NE(chip.side_of(0), chip.side_of(1));
  EXPECT_EQ(chip.side_of(0), chip.side_of(2));

  const LinePool pool = chip.classify(reinterpret_cast<const void*>(0x7f0000000000), 16 * 128);
  ASSERT_EQ(pool.lines().size(), 16u);
  for (std::size_t l = 0; l + 1 < 16; ++l)
    EXPECT_NE(pool.lines()[l].home_class, pool.lines()[l + 1].home_class) << "lines alternate, as the fake's do";
  // Each of a side's lines is the class that side is near.
  for (const Line& line : pool.near(chip.side_of(0)))
    EXPECT_EQ((line.address / 128) % 2, 0u) << "an even line is near CU 0";
  EXPECT_THROW((void)chip.classify(reinterpret_cast<const void*>(0x7e0000000000), 128), Error);
}

}  // namespace
}  // namespace cumap::place
