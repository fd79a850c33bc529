#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "backends/cpu/cpu_pingpong.hpp"
#include "cumap/placement.hpp"

namespace cumap::cpu {

// Page-aligned storage for the rotating flag copies. Copy c occupies its own
// pair of pages, so copies never share a line (or a page) with each other.
class FlagBuffer {
 public:
  explicit FlagBuffer(int copies);
  // The flags of copy `c`, zeroed. Same-line: adjacent words of one line.
  // Split-line: the first word of two lines one page apart.
  FlagPair flags(int copy, Placement placement);

  static constexpr std::size_t kPage = 4096;

 private:
  struct FreeDeleter {
    void operator()(void* p) const;
  };
  std::unique_ptr<std::byte, FreeDeleter> storage_;
};

}  // namespace cumap::cpu
