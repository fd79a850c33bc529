#pragma once
// What a pair's value owes to its particular flag lines. A round trip between
// units a and b on line L costs about T[a][L] + T[b][L] + c, T the home table
// (dependent-atomic latency of each unit to each line). Lines of one home
// class still differ (the L2 slices inside a half), so a map over a handful
// of lines inherits their mix, and a different allocation gives a different
// map. Subtracting each line's predicted excess over its class average leaves
// the pair's own latency. Measured on an H100 (bench/RESULTS.md): 16
// corrected lines per class reproduce across allocations about as well as
// 32 uncorrected ones.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "cumap/map_result.hpp"

namespace cumap {

class LineCorrection {
 public:
  explicit LineCorrection(const HomesResult& homes);
  // One-way ns to subtract from the pair's value on these flags: half the
  // round trip's predicted excess, i.e. half the mean over the two flag lines
  // of T[a][L] + T[b][L] minus the same for the average line of L's class.
  // 0 where the table lacks the unit or the line (nothing is known).
  double oneway_ns(int a, int b, std::uint64_t first_flag, std::uint64_t second_flag) const;

 private:
  // T[a][L] - average over L's class, for a table row and a flag's line.
  double excess(int unit, std::uint64_t flag) const;

  const HomesResult* homes_;
  std::unordered_map<int, std::size_t> row_of_unit_;
  std::unordered_map<std::uint64_t, std::size_t> column_of_line_;
  std::vector<std::vector<double>> class_mean_;  // [class][row]
};

// Sets every pair's line_correction_ns in `map`.
void apply_line_correction(LatencyMap& map, const LineCorrection& correction);

}  // namespace cumap
