#include "backends/hip/stream_pool.hpp"

#include <fmt/format.h>

#include "backends/hip/cu_mask.hpp"
#include "cumap/error.hpp"

namespace cumap {

StreamPool::StreamPool(HipRuntime& runtime, MaskFn mask_for_unit, std::string unit_name)
    : runtime_(runtime), mask_for_unit_(std::move(mask_for_unit)), unit_name_(std::move(unit_name)) {}

StreamPool::~StreamPool() {
  for (const Entry& e : lru_) {
    try {
      runtime_.destroy_stream(e.stream);
    } catch (...) {
      // A destructor must not throw; a device that fails here has already
      // failed louder elsewhere.
    }
  }
}

std::pair<HipStream, HipStream> StreamPool::acquire_pair(int a, int b) {
  // Each side protects the other: b's stream, if alive, must survive a's creation.
  const HipStream sa = acquire_keeping(a, b);
  const HipStream sb = acquire_keeping(b, a);
  return {sa, sb};
}

HipStream StreamPool::acquire(int unit) { return acquire_keeping(unit, std::nullopt); }

HipStream StreamPool::acquire_keeping(int unit, std::optional<int> keep) {
  if (auto it = by_unit_.find(unit); it != by_unit_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->stream;
  }
  if (limit_ && lru_.size() >= *limit_) evict_least_recent(keep);
  const HipStream stream = create(unit, keep);
  lru_.push_front(Entry{unit, stream});
  by_unit_[unit] = lru_.begin();
  peak_alive_ = std::max(peak_alive_, lru_.size());
  return stream;
}

HipStream StreamPool::create(int unit, std::optional<int> keep) {
  const std::vector<std::uint32_t> mask = mask_for_unit_(unit);
  for (;;) {
    const StreamCreation made = runtime_.create_cu_masked_stream(mask);
    switch (made.status) {
      case StreamCreateStatus::Created:
        return made.stream;
      case StreamCreateStatus::OutOfQueues: {
        const std::size_t evictable = lru_.size() - (keep && by_unit_.contains(*keep) ? 1 : 0);
        if (evictable == 0) {
          throw RuntimeFailure(fmt::format(
              "hipExtStreamCreateWithCUMask refused a stream for {} {} (mask {}) with only {} "
              "stream(s) alive: {}",
              unit_name_, unit, format_cu_mask(mask), lru_.size(), made.error));
        }
        limit_ = lru_.size();
        evict_least_recent(keep);
        break;
      }
      case StreamCreateStatus::Failed:
        throw RuntimeFailure(fmt::format(
            "hipExtStreamCreateWithCUMask failed for {} {} (mask {}): {}", unit_name_, unit,
            format_cu_mask(mask), made.error));
    }
  }
}

void StreamPool::evict_least_recent(std::optional<int> keep) {
  for (auto it = lru_.rbegin(); it != lru_.rend(); ++it) {
    if (keep && it->unit == *keep) continue;
    const Entry victim = *it;
    by_unit_.erase(victim.unit);
    lru_.erase(std::next(it).base());
    runtime_.destroy_stream(victim.stream);
    return;
  }
}

}  // namespace cumap
