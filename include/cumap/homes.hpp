#pragma once
// Flag lines have homes. On a GPU a line lives in one L2 slice, and every
// unit reaches some slices faster than others: home discovery measures each
// unit's latency to each line (the home table), groups lines into home
// classes and units into sides. These are its results, and the two
// statistics of a map that go with them (the additive fit, the agreement of
// two maps) and the structure table. core/homes.hpp computes them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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

// RTT(a,b) = u(a) + u(b) + c fitted to a map's finite off-diagonal cells by
// least squares (fit_additive). `r2` is the share of the cells' variance it
// explains.
struct AdditiveFit {
  std::vector<int> units;
  std::vector<double> unit_term;  // u(a), same order as units
  double constant = 0.0;
  double r2 = 0.0;
};

// Agreement of two sets of paired values (cells of two maps, NaN pairs skipped).
struct Agreement {
  std::size_t n = 0;
  double pearson_r = 0.0;
  double median_rel_diff = 0.0;  // median of |x-y| / ((x+y)/2)
  double median_x = 0.0;
  double median_y = 0.0;
  bool operator==(const Agreement&) const = default;
};

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
  bool operator==(const StructureRow&) const = default;
};

}  // namespace cumap
