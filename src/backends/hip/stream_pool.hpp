#pragma once
#include <cstddef>
#include <functional>
#include <list>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backends/hip/hip_runtime.hpp"

namespace cumap {

// One CU-masked stream per unit, created on first use and kept in an LRU
// pool. Every masked stream owns a hardware queue, and past the hardware's
// queues creation still succeeds but the firmware time-slices the queues, so
// a pair's two kernels may never run together. The pool therefore never
// holds more than its budget (--max-streams). When creation fails for lack
// of queues it also takes the number alive as a limit. Either way it
// destroys the least recently used stream, never one the current round
// needs, and carries on: a 304-CU map runs under a 24-queue budget.
class StreamPool {
 public:
  using MaskFn = std::function<std::vector<std::uint32_t>(int unit)>;

  StreamPool(HipRuntime& runtime, MaskFn mask_for_unit, std::string unit_name, std::size_t budget);
  ~StreamPool();
  StreamPool(const StreamPool&) = delete;
  StreamPool& operator=(const StreamPool&) = delete;

  // Streams confined to each of `units` (distinct, at most capacity()), all alive on return.
  std::vector<HipStream> acquire_all(const std::vector<int>& units);
  std::pair<HipStream, HipStream> acquire_pair(int a, int b);
  HipStream acquire(int unit);

  // Most streams alive at once: the budget, or less once the device refused one.
  std::size_t capacity() const { return limit_ ? std::min(*limit_, budget_) : budget_; }
  // A smaller budget (time-slicing was seen); streams beyond it are destroyed.
  void shrink_budget(std::size_t streams);

  std::size_t budget() const { return budget_; }
  std::size_t alive() const { return lru_.size(); }
  std::size_t peak_alive() const { return peak_alive_; }
  // The number of streams the device allowed, once it refused one.
  std::optional<std::size_t> limit() const { return limit_; }

 private:
  HipStream acquire_keeping(int unit, const std::set<int>& keep);
  HipStream create(int unit, const std::set<int>& keep);
  bool evict_least_recent(const std::set<int>& keep);

  struct Entry {
    int unit;
    HipStream stream;
  };
  HipRuntime& runtime_;
  MaskFn mask_for_unit_;
  std::string unit_name_;
  std::size_t budget_;
  std::list<Entry> lru_;  // front: most recently used
  std::unordered_map<int, std::list<Entry>::iterator> by_unit_;
  std::optional<std::size_t> limit_;
  std::size_t peak_alive_ = 0;
};

}  // namespace cumap
