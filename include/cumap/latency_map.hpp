#pragma once
// A map: per pair of units and flag line, the statistics of its samples, and
// the specification of the map they form (placement, home class, units).
// core/matrix.hpp makes them from measurements and reduces them to matrices.
#include <cstdint>
#include <vector>

#include "cumap/options.hpp"
#include "cumap/values.hpp"

namespace cumap {

// Statistics of one pair (over samples) on one flag line: one row of pairs.csv.
struct PairStats {
  int a = 0;
  int b = 0;
  int pass = 0;                 // which of the pair's lines in this class (0 .. lines per class - 1)
  int home_class = 0;           // home class of the first flag's line (a class of the flag device)
  int flag_device = 0;          // the device whose memory (flag arena) held the flags
  std::uint64_t first_flag = 0;   // byte offsets of the two flags in the flag arena
  std::uint64_t second_flag = 0;
  Summary rtt_ns{};            // round trip, over samples
  double cycles_median = kNaN; // round trip in device cycles
  double cold_ns = kNaN;       // first round trip alone
  int iters = 0;
  bool timed_out = false;
  // One-way ns the home table says this value owes to its particular flag
  // lines (see line_correction.hpp); maps show oneway_median_ns() minus it.
  double line_correction_ns = 0.0;
  double oneway_median_ns() const { return rtt_ns.median / 2.0; }
  double corrected_oneway_ns() const { return oneway_median_ns() - line_correction_ns; }
};

// Which map a set of pairs forms.
struct MapSpec {
  Placement placement = Placement::SameLine;
  int home_class = kAllClasses;  // the first flag's class; kAllClasses: the headline over every class
  std::vector<int> units;
  bool ordered = false;
  int iters = 0;
  static constexpr int kAllClasses = -1;
};

// The whole result for one placement and home class (or all classes).
struct LatencyMap {
  MapSpec spec;
  std::vector<PairStats> pairs;  // every pair x line

  Placement placement() const { return spec.placement; }
  const std::vector<int>& units() const { return spec.units; }
  // One-way latency in ns per cell: the median over the pair's lines of each
  // line's median (less its line correction), per home class and flag device;
  // over several, the mean of those medians (each class, and each side of a
  // pair across devices, weighs the same). Unordered maps are mirrored;
  // ordered ones are not.
  ValueMatrix oneway_ns() const;
  // Largest minus smallest per-line median one-way latency as measured (before
  // line correction; 0 with one line).
  ValueMatrix line_spread_ns() const;
  std::vector<PairStats> timed_out() const;
};

}  // namespace cumap
