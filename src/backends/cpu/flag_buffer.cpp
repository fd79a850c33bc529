#include "backends/cpu/flag_buffer.hpp"

#include <cstdlib>
#include <new>

#include "cumap/error.hpp"

namespace cumap::cpu {

void FlagBuffer::FreeDeleter::operator()(void* p) const { std::free(p); }

FlagBuffer::FlagBuffer(int copies) {
  static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
  const std::size_t bytes = static_cast<std::size_t>(copies) * 2 * kPage;
  void* p = std::aligned_alloc(kPage, bytes);
  if (!p) throw RuntimeFailure("cannot allocate the flag buffer");
  storage_.reset(static_cast<std::byte*>(p));
}

FlagPair FlagBuffer::flags(int copy, Placement placement) {
  std::byte* base = storage_.get() + static_cast<std::size_t>(copy) * 2 * kPage;
  std::byte* second = placement == Placement::SameLine ? base + sizeof(std::uint32_t) : base + kPage;
  static_assert(sizeof(std::uint32_t) * 2 <= 32, "both same-line flags fit any cache line");
  auto* a = new (base) std::atomic<std::uint32_t>(0);
  auto* b = new (second) std::atomic<std::uint32_t>(0);
  return {a, b};
}

}  // namespace cumap::cpu
