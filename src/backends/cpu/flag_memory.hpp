#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "cumap/plan.hpp"

namespace cumap::cpu {

// The flag arena of a plan in host memory: page-aligned, zeroed, and kept by
// the backend for its lifetime so that an offset always names the same line.
// The arena starts `offset_bytes` into the allocation (--flag-offset).
class FlagMemory {
 public:
  explicit FlagMemory(const FlagArena& arena);
  const FlagArena& arena() const { return arena_; }
  // The 32-bit flag word at `offset` bytes into the arena. Throws UsageError
  // for an offset outside the arena or not 4-byte aligned: a plan error.
  std::atomic<std::uint32_t>& word(std::uint64_t offset) const;

  static constexpr std::size_t kPage = 4096;

 private:
  struct FreeDeleter {
    void operator()(void* p) const;
  };
  FlagArena arena_;
  std::unique_ptr<std::byte, FreeDeleter> storage_;
};

}  // namespace cumap::cpu
