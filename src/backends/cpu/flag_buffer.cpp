#include "backends/cpu/flag_buffer.hpp"

#include <unistd.h>

#include <cstdlib>
#include <new>

#include <fmt/format.h>

#include "cumap/error.hpp"

namespace cumap::cpu {

void FlagBuffer::FreeDeleter::operator()(void* p) const { std::free(p); }

FlagBuffer::FlagBuffer(int copies) {
  static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
  const std::size_t bytes = static_cast<std::size_t>(copies) * 2 * kPage;
  // A --rotating-count the machine cannot hold is bad input, not a failure.
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  if (pages > 0 && bytes / kPage > static_cast<std::size_t>(pages) / 2)
    throw UsageError(fmt::format("--rotating-count {} needs {} MiB of flag copies; the machine has {} MiB free",
                                 copies, bytes >> 20, (static_cast<std::size_t>(pages) * kPage) >> 20));
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
