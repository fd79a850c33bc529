// Where the flags of each placement and copy sit in memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>

#include "backends/cpu/flag_buffer.hpp"

namespace cumap::cpu {
namespace {

constexpr std::uintptr_t kLine = 64;
constexpr std::uintptr_t kPage = 4096;

std::uintptr_t addr(const std::atomic<std::uint32_t>* p) { return reinterpret_cast<std::uintptr_t>(p); }

TEST(cpu_FlagBuffer, SameLineFlagsShareOneLine) {
  FlagBuffer buffer(3);
  for (int c = 0; c < 3; ++c) {
    const FlagPair f = buffer.flags(c, Placement::SameLine);
    EXPECT_NE(addr(f.first), addr(f.second));
    EXPECT_EQ(addr(f.first) / kLine, addr(f.second) / kLine) << "copy " << c;
    EXPECT_EQ(addr(f.first) % alignof(std::atomic<std::uint32_t>), 0u);
    EXPECT_EQ(addr(f.second) % alignof(std::atomic<std::uint32_t>), 0u);
  }
}

TEST(cpu_FlagBuffer, SplitLineFlagsAreInDifferentLinesAndPages) {
  FlagBuffer buffer(3);
  for (int c = 0; c < 3; ++c) {
    const FlagPair f = buffer.flags(c, Placement::SplitLine);
    EXPECT_NE(addr(f.first) / kLine, addr(f.second) / kLine) << "copy " << c;
    EXPECT_NE(addr(f.first) / kPage, addr(f.second) / kPage) << "copy " << c;
  }
}

TEST(cpu_FlagBuffer, CopiesNeverShareALine) {
  FlagBuffer buffer(4);
  std::set<std::uintptr_t> lines_of_earlier_copies;
  for (int c = 0; c < 4; ++c) {
    std::set<std::uintptr_t> lines;
    for (Placement p : {Placement::SameLine, Placement::SplitLine}) {
      const FlagPair f = buffer.flags(c, p);
      lines.insert(addr(f.first) / kLine);
      lines.insert(addr(f.second) / kLine);
    }
    for (std::uintptr_t line : lines)
      EXPECT_EQ(lines_of_earlier_copies.count(line), 0u) << "copy " << c << " reuses a line";
    lines_of_earlier_copies.insert(lines.begin(), lines.end());
  }
}

TEST(cpu_FlagBuffer, FlagsComeBackZeroed) {
  // run_cpu_pair requires zero flags on entry; a second pair reuses the copy.
  FlagBuffer buffer(1);
  FlagPair f = buffer.flags(0, Placement::SplitLine);
  f.first->store(17);
  f.second->store(42);
  f = buffer.flags(0, Placement::SplitLine);
  EXPECT_EQ(f.first->load(), 0u);
  EXPECT_EQ(f.second->load(), 0u);
}

}  // namespace
}  // namespace cumap::cpu
