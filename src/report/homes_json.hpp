#pragma once
#include <nlohmann/json.hpp>

#include "cumap/result.hpp"

namespace cumap {

// homes.json: the arena, every line's class, every unit's side, per-class
// latencies by unit; across devices {"devices": [that, per device]}.
nlohmann::json homes_json(const RunHomes& homes);

}  // namespace cumap
