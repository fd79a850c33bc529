// The registry of live temporary files, readable from a signal handler.
#include "publish/temp_files.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <system_error>

namespace cumap {
namespace {

enum SlotState : int { kFree = 0, kBusy = 1, kLive = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX]{};
};
static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need lock-free atomics");

// Enough for every file the map writes at once, with room to spare.
constexpr std::size_t kSlots = 256;

// Process-wide on purpose: a signal handler receives no argument, so the
// only way it can find the temporary files is through static storage. The
// array is constant-initialised (no constructor runs, no order problem).
std::array<Slot, kSlots>& slots() {
  static std::array<Slot, kSlots> registry;
  return registry;
}

}  // namespace

RegisteredTempFile::RegisteredTempFile(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  const std::string& text = ec ? path.native() : absolute.native();
  if (text.size() >= PATH_MAX) return;  // open(2) could not have made it either
  for (std::size_t i = 0; i < kSlots; ++i) {
    Slot& slot = slots()[i];
    int expected = kFree;
    // kBusy while the path is copied: the handler skips the slot until it is whole.
    if (!slot.state.compare_exchange_strong(expected, kBusy, std::memory_order_acquire)) continue;
    std::memcpy(slot.path, text.c_str(), text.size() + 1);
    slot.state.store(kLive, std::memory_order_release);
    slot_ = static_cast<int>(i);
    return;
  }
}

RegisteredTempFile::~RegisteredTempFile() {
  if (slot_ < 0) return;
  Slot& slot = slots()[static_cast<std::size_t>(slot_)];
  slot.state.store(kBusy, std::memory_order_release);  // the handler stops looking first
  slot.path[0] = '\0';
  slot.state.store(kFree, std::memory_order_release);
}

void remove_registered_temp_files() noexcept {
  for (Slot& slot : slots())
    if (slot.state.load(std::memory_order_acquire) == kLive) ::unlink(slot.path);
  // Then the directories, once their files are gone; rmdir() removes only
  // empty ones. Registered outermost first, so removed newest first.
  for (auto it = slots().rbegin(); it != slots().rend(); ++it)
    if (it->state.load(std::memory_order_acquire) == kLive) ::rmdir(it->path);
}

std::size_t registered_temp_file_count() {
  std::size_t count = 0;
  for (const Slot& slot : slots())
    if (slot.state.load(std::memory_order_acquire) == kLive) ++count;
  return count;
}

}  // namespace cumap
