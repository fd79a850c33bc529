#pragma once
// Flag lines have homes. On a GPU a line lives in one L2 slice, and every
// unit reaches some slices faster than others (an H100 has two L2 halves: a
// line in the unit's own half ~312 cycles, in the other ~512). A ping-pong
// between units a and b on line L costs about T[a][L] + T[b][L], so a map on
// one line shows where that line lives as much as where the units are.
// Home discovery measures T, groups lines into home classes by their latency
// profile across units, and units into sides (the class each unit is near).
// Nothing here knows how many classes a chip has: that is measured.
#include <cstdint>
#include <string>
#include <vector>

#include "core/value_matrix.hpp"
#include "cumap/plan.hpp"

namespace cumap {

// units x lines, row-major. NaN where a value is missing.
struct LineLatencyTable {
  std::vector<UnitRef> units;
  std::vector<std::uint64_t> lines;  // byte offsets in the flag arena
  std::vector<double> cycles;        // per dependent atomic, device cycles (NaN without a cycle counter)
  std::vector<double> ns;            // the same in ns
  double ns_at(std::size_t u, std::size_t l) const { return ns[u * lines.size() + l]; }
};

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

// Labels are canonical, so that two runs of one chip name classes and sides
// alike wherever their flag arena landed: side 0 is the side that holds the
// lowest unit id (by unit_id()), home class 0 the class that side is near,
// and so on by the lowest unit id near each class (classes no unit is
// nearest to come last).
struct HomeClasses {
  int class_count = 1;
  std::vector<int> line_class;  // per table line: 0..class_count-1
  std::vector<int> unit_side;   // per table unit: the class whose lines it reaches fastest (0 without data)
  // [class][unit]: median latency (ns) from the unit to the lines of the class.
  std::vector<std::vector<double>> class_unit_ns;
  // How clearly the classes separate: the smallest distance between two
  // class profiles over the largest within-class spread (inf with one class).
  double separation = 0.0;
  std::vector<std::uint64_t> lines_of(int c, const std::vector<std::uint64_t>& lines) const;
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
struct AdditiveFit {
  std::vector<int> units;
  std::vector<double> unit_term;  // u(a), same order as units
  double constant = 0.0;
  double r2 = 0.0;
};
AdditiveFit fit_additive(const ValueMatrix& m);

// Agreement of two sets of paired values (cells of two maps, NaN pairs skipped).
struct Agreement {
  std::size_t n = 0;
  double pearson_r = 0.0;
  double median_rel_diff = 0.0;  // median of |x-y| / ((x+y)/2)
  double median_x = 0.0;
  double median_y = 0.0;
};
Agreement agreement(const std::vector<double>& x, const std::vector<double>& y);
Agreement agreement(const ValueMatrix& x, const ValueMatrix& y);  // same units required

// The chip-independent view: one-way latency by where the two units sit
// relative to each other (same side or not) and to the flag's home class
// (how many of the two units are near it).
struct StructureRow {
  std::string relation;  // "same-side" or "other-side"
  int near_units = 0;    // 2: the flag's class is both units' side, 1: one's, 0: neither's
  double median_ns = 0.0;
  double p05_ns = 0.0;
  double p95_ns = 0.0;
  std::size_t cells = 0;
};
// `per_class[c]` is the one-way map measured with flags in class c. Only
// pairs on one device count (ids across devices by unit_id()).
std::vector<StructureRow> structure_table(const std::vector<ValueMatrix>& per_class,
                                          const std::vector<int>& units, const std::vector<int>& unit_side);
// The same rows for one map alone: `oneway` measured with flags in class
// `home_class` (a pair's near units count against that class).
std::vector<StructureRow> class_structure_table(const ValueMatrix& oneway, int home_class,
                                                const std::vector<int>& units, const std::vector<int>& unit_side);

}  // namespace cumap
