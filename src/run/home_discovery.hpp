#pragma once
#include <vector>

#include "cumap/backend.hpp"
#include "cumap/options.hpp"
#include "cumap/result.hpp"

namespace cumap {

// Per device of `units` (ids below kDeviceUnitStride are on options.device):
// probes `options.home_lines` lines of its flag arena, moved by
// `options.flag_offset`, from each of its units, and classifies them; across
// devices, then probes the same lines from every other device's units
// (HomesResult::remote).
RunHomes discover_homes(Backend& backend, const std::vector<int>& units, const Options& options,
                        const ProgressFn& progress);

}  // namespace cumap
