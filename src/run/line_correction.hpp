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
#include <map>
#include <unordered_map>
#include <vector>

#include "cumap/result.hpp"

namespace cumap {

class LineCorrection {
 public:
  // `homes` must outlive the correction (it keeps pointers into it).
  explicit LineCorrection(const RunHomes& homes);
  explicit LineCorrection(RunHomes&&) = delete;
  // One-way ns to subtract from the pair's value on these flags of
  // `flag_device`: half the round trip's predicted excess, i.e. half the mean
  // over the two flag lines of T[a][L] + T[b][L] minus the same for the
  // average line of L's class. A unit on another device than the flags
  // reaches them over the link: its term comes from the flag device's remote
  // table (HomesResult::remote), and is left out where the run has none. 0
  // where a unit is in no device's table, or the flag device's table lacks
  // the line or a value for a unit on it (nothing is known).
  double oneway_ns(int a, int b, int flag_device, std::uint64_t first_flag, std::uint64_t second_flag) const;

 private:
  // One table of a device's lines: rows by unit id, class averages per row.
  struct Rows {
    const LineLatencyTable* table = nullptr;
    std::unordered_map<int, std::size_t> row_of_unit;
    std::vector<std::vector<double>> class_mean;  // [class][row]
  };
  // One device's lines: its own units' table and the other devices' units'.
  struct DeviceTable {
    const HomesResult* homes = nullptr;
    std::unordered_map<std::uint64_t, std::size_t> column_of_line;
    Rows own, remote;
    // T[row][L] - average over L's class; NaN where unknown.
    double excess(const Rows& rows, std::size_t row, std::uint64_t flag) const;
  };
  std::map<int, DeviceTable> devices_;
  std::unordered_map<int, int> device_of_unit_;  // every table's units
};

// Sets every pair's line_correction_ns in `map`.
void apply_line_correction(LatencyMap& map, const LineCorrection& correction);

}  // namespace cumap
