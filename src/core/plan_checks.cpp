// Checks every single-device backend makes before it executes a plan.
#include <algorithm>

#include <fmt/format.h>

#include "cumap/backend.hpp"
#include "cumap/units.hpp"

namespace cumap {

void check_plan_units(const MeasurementPlan& plan, int device, const std::vector<int>& available,
                      const std::string& unit_name) {
  for (const UnitRef& u : plan.units) {
    if (u.device != device)
      throw UsageError(fmt::format("this backend measures one device ({}); the plan names {} {} of device {}", device,
                                   unit_name, u.unit, u.device));
    if (!std::binary_search(available.begin(), available.end(), u.unit))
      throw UsageError(fmt::format("{} {} does not exist on this device ({}s: {})", unit_name, u.unit, unit_name,
                                   format_unit_list(available)));
  }
  if (protocol::round_trips(plan.counts) > protocol::kMaxRoundTrips)
    throw UsageError("--iters x --samples is too large: a pair's flag values must fit in 31 bits");
  if (plan.counts.iters < 1 || plan.counts.samples < 1 || plan.counts.warmup < 0)
    throw UsageError("iters and samples must be at least 1, warmup at least 0");
}

}  // namespace cumap
