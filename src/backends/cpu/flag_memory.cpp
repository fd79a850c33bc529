#include "backends/cpu/flag_memory.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "cumap/error.hpp"

namespace cumap::cpu {

void FlagMemory::FreeDeleter::operator()(void* p) const { std::free(p); }

FlagMemory::FlagMemory(const FlagArena& arena) : arena_(arena) {
  static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
  static_assert(sizeof(std::atomic<std::uint32_t>) == protocol::kFlagBytes);
  const std::uint64_t wanted = arena.offset_bytes + arena.bytes;
  const std::size_t bytes = (wanted + kPage - 1) / kPage * kPage;
  // An arena the machine cannot hold is bad input, not a failure.
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  if (bytes == 0 || (pages > 0 && bytes / kPage > static_cast<std::size_t>(pages) / 2))
    throw UsageError(fmt::format("a flag arena of {} bytes (offset {}) does not fit this machine's free memory",
                                 arena.bytes, arena.offset_bytes));
  void* p = std::aligned_alloc(kPage, bytes);
  if (!p) throw RuntimeFailure("cannot allocate the flag arena");
  std::memset(p, 0, bytes);
  storage_.reset(static_cast<std::byte*>(p));
}

std::atomic<std::uint32_t>& FlagMemory::word(std::uint64_t offset) const {
  if (offset % protocol::kFlagBytes != 0 || offset + protocol::kFlagBytes > arena_.bytes)
    throw UsageError(fmt::format("flag offset {} is outside the {}-byte flag arena or not 4-byte aligned", offset,
                                 arena_.bytes));
  // Zeroed 4-byte words are valid std::atomic<uint32_t> objects (lock-free,
  // same size and representation), as every backend's flags are.
  return *reinterpret_cast<std::atomic<std::uint32_t>*>(storage_.get() + arena_.offset_bytes + offset);
}

}  // namespace cumap::cpu
