#pragma once
#include <string>

#include "cumap/result.hpp"

namespace cumap {

// homes.csv: the unit x line table, long form (unit,line_offset,home_class,
// cycles,ns); a line is in the arena of the unit's device. Across devices a
// column lines_on (after unit) names the device whose lines they are, and
// each device's remote table follows its own.
std::string homes_csv(const RunHomes& homes);

}  // namespace cumap
