#pragma once
#include <cstddef>
#include <functional>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backends/hip/hip_runtime.hpp"

namespace cumap {

// One CU-masked stream per unit, created on first use and kept in an LRU
// pool. Every masked stream owns a hardware queue and devices have few of
// them, so when creation fails for lack of queues the pool takes the number
// alive as its limit, destroys the least recently used stream (never one the
// current pair needs) and tries again: a 64-CU map runs on an 8-queue device.
class StreamPool {
 public:
  using MaskFn = std::function<std::vector<std::uint32_t>(int unit)>;

  StreamPool(HipRuntime& runtime, MaskFn mask_for_unit, std::string unit_name);
  ~StreamPool();
  StreamPool(const StreamPool&) = delete;
  StreamPool& operator=(const StreamPool&) = delete;

  // Streams confined to `a` and to `b` (a != b), both alive on return.
  std::pair<HipStream, HipStream> acquire_pair(int a, int b);
  // A stream confined to `unit`.
  HipStream acquire(int unit);

  std::size_t alive() const { return lru_.size(); }
  std::size_t peak_alive() const { return peak_alive_; }
  // The number of streams the device allowed, once it refused one.
  std::optional<std::size_t> limit() const { return limit_; }

 private:
  HipStream acquire_keeping(int unit, std::optional<int> keep);
  HipStream create(int unit, std::optional<int> keep);
  void evict_least_recent(std::optional<int> keep);

  struct Entry {
    int unit;
    HipStream stream;
  };
  HipRuntime& runtime_;
  MaskFn mask_for_unit_;
  std::string unit_name_;
  std::list<Entry> lru_;  // front: most recently used
  std::unordered_map<int, std::list<Entry>::iterator> by_unit_;
  std::optional<std::size_t> limit_;
  std::size_t peak_alive_ = 0;
};

}  // namespace cumap
