#include "backends/hip/stream_pool.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "backends/hip/cu_mask.hpp"
#include "cumap/error.hpp"

namespace cumap {

StreamPool::StreamPool(HipRuntime& runtime, MaskFn mask_for_unit, std::string unit_name, std::size_t budget)
    : runtime_(runtime),
      mask_for_unit_(std::move(mask_for_unit)),
      unit_name_(std::move(unit_name)),
      budget_(std::max<std::size_t>(budget, 2)) {}

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

std::vector<HipStream> StreamPool::acquire_all(const std::vector<int>& units) {
  if (units.size() > capacity())
    throw RuntimeFailure(fmt::format("{} {}s at once need more than the {} masked streams the pool may hold",
                                     units.size(), unit_name_, capacity()));
  // Every unit of the call protects the others: a stream made for one must
  // not evict one made a moment ago for another.
  const std::set<int> keep(units.begin(), units.end());
  std::vector<HipStream> streams;
  for (int u : units) streams.push_back(acquire_keeping(u, keep));
  return streams;
}

std::pair<HipStream, HipStream> StreamPool::acquire_pair(int a, int b) {
  const auto s = acquire_all({a, b});
  return {s[0], s[1]};
}

HipStream StreamPool::acquire(int unit) { return acquire_all({unit})[0]; }

void StreamPool::shrink_budget(std::size_t streams) {
  budget_ = std::max<std::size_t>(streams, 2);
  while (lru_.size() > capacity() && evict_least_recent({})) {
  }
}

HipStream StreamPool::acquire_keeping(int unit, const std::set<int>& keep) {
  if (auto it = by_unit_.find(unit); it != by_unit_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->stream;
  }
  while (lru_.size() >= capacity() && evict_least_recent(keep)) {
  }
  const HipStream stream = create(unit, keep);
  lru_.push_front(Entry{unit, stream});
  by_unit_[unit] = lru_.begin();
  peak_alive_ = std::max(peak_alive_, lru_.size());
  return stream;
}

HipStream StreamPool::create(int unit, const std::set<int>& keep) {
  const std::vector<std::uint32_t> mask = mask_for_unit_(unit);
  for (;;) {
    const StreamCreation made = runtime_.create_cu_masked_stream(mask);
    switch (made.status) {
      case StreamCreateStatus::Created:
        return made.stream;
      case StreamCreateStatus::OutOfQueues: {
        const std::size_t alive = lru_.size();
        if (!evict_least_recent(keep)) {
          throw RuntimeFailure(fmt::format(
              "hipExtStreamCreateWithCUMask refused a stream for {} {} (mask {}) with only {} "
              "stream(s) alive: {}",
              unit_name_, unit, format_cu_mask(mask), alive, made.error));
        }
        limit_ = alive;
        break;
      }
      case StreamCreateStatus::Failed:
        throw RuntimeFailure(fmt::format(
            "hipExtStreamCreateWithCUMask failed for {} {} (mask {}): {}", unit_name_, unit,
            format_cu_mask(mask), made.error));
    }
  }
}

bool StreamPool::evict_least_recent(const std::set<int>& keep) {
  for (auto it = lru_.rbegin(); it != lru_.rend(); ++it) {
    if (keep.contains(it->unit)) continue;
    const Entry victim = *it;
    by_unit_.erase(victim.unit);
    lru_.erase(std::next(it).base());
    runtime_.destroy_stream(victim.stream);
    return true;
  }
  return false;
}

}  // namespace cumap
