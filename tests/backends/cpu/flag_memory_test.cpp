// The cpu backend's flag arena: where offsets land, and plan errors.
#include <gtest/gtest.h>

#include <cstdint>

#include "backends/cpu/flag_memory.hpp"
#include "cumap/error.hpp"

namespace cumap::cpu {
namespace {

std::uintptr_t addr(const std::atomic<std::uint32_t>& w) { return reinterpret_cast<std::uintptr_t>(&w); }

TEST(FlagMemory, OffsetsAreBytesFromAPageAlignedBase) {
  FlagMemory memory(FlagArena{8192, 0});
  const std::uintptr_t base = addr(memory.word(0));
  EXPECT_EQ(base % FlagMemory::kPage, 0u);
  EXPECT_EQ(addr(memory.word(4)), base + 4);
  EXPECT_EQ(addr(memory.word(4096)), base + 4096);
  EXPECT_EQ(memory.word(128).load(), 0u) << "the arena starts zeroed";
}

TEST(FlagMemory, TheArenaOffsetMovesEveryWord) {
  FlagMemory memory(FlagArena{4096, 64});
  EXPECT_EQ(addr(memory.word(0)) % FlagMemory::kPage, 64u);
}

TEST(FlagMemory, OffsetsOutsideOrMisalignedAreUsageErrors) {
  FlagMemory memory(FlagArena{4096, 0});
  EXPECT_NO_THROW(memory.word(4092));
  EXPECT_THROW(memory.word(4096), UsageError);
  EXPECT_THROW(memory.word(2), UsageError);
}

}  // namespace
}  // namespace cumap::cpu
