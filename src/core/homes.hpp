#pragma once
// Home discovery's analysis (its results are cumap/homes.hpp). On a GPU a
// line lives in one L2 slice, and every unit reaches some slices faster than
// others (an H100 has two L2 halves: a line in the unit's own half ~312
// cycles, in the other ~512). A ping-pong between units a and b on line L
// costs about T[a][L] + T[b][L], so a map on one line shows where that line
// lives as much as where the units are. Lines are grouped into home classes
// by their latency profile across units, units into sides (the class each
// unit is near). Nothing here knows how many classes a chip has: that is
// measured.
#include <cstdint>
#include <string>
#include <vector>

#include "cumap/homes.hpp"
#include "cumap/values.hpp"

namespace cumap {

struct ClassifyOptions {
  // A split into two classes is kept only when the two groups' mean latency
  // profiles differ by at least this many times the spread of lines around
  // their own group's profile (a CPU, whose lines all look alike, gets one class).
  double min_separation = 4.0;
  // ... and by at least this fraction of the table's median latency (the
  // H100's two L2 halves differ by ~50 %, slices inside a half by a few %).
  double min_relative_gap = 0.05;
  int max_classes = 16;
};

// Memory and time grow with the table's units x lines: the clustering tree
// is built from at most 4096 lines (a fixed pseudo-random sample of a larger
// table), and the other lines join the class whose profile is nearest.
HomeClasses classify_lines(const LineLatencyTable& table, const ClassifyOptions& options = {});

// For each line of `table` (the same units as the classified table), the
// class whose per-unit latency profile is nearest to the line's, both
// centred on their own mean (a line's slice offset is not its class).
std::vector<int> nearest_classes(const HomeClasses& classes, const LineLatencyTable& table);

// RTT(a,b) = u(a) + u(b) + c fitted to the finite off-diagonal cells by least
// squares. `r2` is the share of the cells' variance it explains.
AdditiveFit fit_additive(const ValueMatrix& m);

Agreement agreement(const std::vector<double>& x, const std::vector<double>& y);
Agreement agreement(const ValueMatrix& x, const ValueMatrix& y);  // same units required

// `per_class[c]` is the one-way map measured with flags in class c. Only
// pairs on one device count (ids across devices by unit_id()).
std::vector<StructureRow> structure_table(const std::vector<ValueMatrix>& per_class,
                                          const std::vector<int>& units, const std::vector<int>& unit_side);
// The same rows for one map alone: `oneway` measured with flags in class
// `home_class` (a pair's near units count against that class).
std::vector<StructureRow> class_structure_table(const ValueMatrix& oneway, int home_class,
                                                const std::vector<int>& units, const std::vector<int>& unit_side);

}  // namespace cumap
