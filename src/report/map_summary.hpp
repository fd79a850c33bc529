#pragma once
#include <string>

#include "core/homes.hpp"
#include "cumap/result.hpp"

namespace cumap {

// Where a pair sits relative to the flag's home, in a reader's words: "near
// the flag's home" (both units on the side near it), "far" (both on another
// side), "across sides" (one near it, one not), "across sides, both far"
// (with three or more classes: two sides, neither the flag's).
std::string structure_words(const StructureRow& row);

// No pair of the placement (of any placement of the run) has a value: every
// measurement timed out.
bool no_pair_completed(const PlacementResult& placement);
bool no_pair_completed(const MapResult& result);

// The map's one-line summary: device, units, home classes (not on the dsm
// path, which has none), each placement's headline median and range, the
// one-way latency by where pairs sit relative to the flag's home (with two
// or more classes), where the files went.
std::string map_summary_line(const MapResult& result);

}  // namespace cumap
