#pragma once
// The checks every backend applies to a SyncPlan (cumap barrier, cumap
// contention) before running it: a bad plan fails as bad input, not on the
// device. What only one device can or cannot run (grid.sync() with fewer
// than every SM) is the backend's to say, as SyncMeasurement::unsupported.
#include <cstdint>
#include <string>
#include <vector>

#include "cumap/sync.hpp"
#include "plan/plan_checks.hpp"

namespace cumap {

// A word of a case: a byte offset into the flag arena of `device`.
struct SyncWordSite {
  int device = 0;
  std::uint64_t offset = 0;
  bool operator==(const SyncWordSite&) const = default;
};

// The arena words one case touches, in this order: the counter, and for flag
// and two-level barriers the release flag, and for two-level every group's
// counter and release flag; where the leaders meet by exchange (across
// devices), every group's counter, release flag and exchange counter
// instead, each on its group's device.
std::vector<SyncWordSite> sync_case_sites(const SyncCase& c);
// The same as byte offsets alone, for a backend of one device.
std::vector<std::uint64_t> sync_case_words(const SyncCase& c);
// The devices a case touches, ascending: its participants' and its lines'.
std::vector<int> sync_case_devices(const SyncCase& c);

// Throws UsageError unless every case has participants that exist on
// `available` (each once) and its lines on a device of `available`, counts
// a kernel can run (episodes and operations at least 1, warm-up at least 0,
// counter values that fit in 31 bits), a well-formed two-level grouping (a
// group per participant, every group with a participant, a counter and a
// release line per group, each group's lines on its participants' device,
// an exchange line per group or none), and its words aligned inside the
// arena, each at least a line (128 bytes) from every other of its device, so
// that no two share a cache line; and a probe barriers can poll with (not
// mbarrier).
void check_sync_plan(const SyncPlan& plan, const UnitsByDevice& available, const std::string& unit_name);

}  // namespace cumap
