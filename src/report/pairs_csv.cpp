// pairs.csv: the long form, one row per pair, placement and flag line.
//
// Columns and their units (docs/files.md says them for users; keep the two alike):
//   a, b                  unit ids; across devices "g<device>.<unit>"
//   via                   the signal's path: global (memory) or dsm (inside a cluster)
//   home_class            home class of the first flag's line (see homes.json)
//   pass                  which of the pair's lines in that class
//   first_flag, second_flag  byte offsets of the two flags in the flag arena
//                         (home_class and the flags are empty on the dsm path:
//                         its flags are in shared memory, on no flag line)
//   flags_on              the device whose memory (flag arena) held the flags
//   oneway_ns_median      one-way latency: the median round trip / 2, as measured
//   line_correction_ns    what the home table predicts this line adds (one-way);
//                         the matrices show oneway_ns_median minus it
//   rtt_ns_median         the median round trip itself
//   p05_ns, p95_ns, min_ns  ONE-WAY, like oneway_ns_median (round-trip
//                         percentile / 2), so that the latency columns of a
//                         row can be compared with each other directly
//   cycles_median         median round trip in device cycles (empty without a cycle clock)
//   cold_ns               the pair's first round trip, timed alone (a round trip, not halved)
//   samples               samples that produced a value; iters: round trips per sample
//   timed_out             1 when the pair hit the timeout, else 0
// Empty cells mark values that do not exist (NaN).
#include "report/pairs_csv.hpp"

#include <algorithm>
#include <cstddef>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "core/units.hpp"
#include "cumap/plan.hpp"

namespace cumap {
namespace {

// A full GPU run writes over half a million rows: they are formatted with
// compiled format strings straight into buffers (no string per cell), in
// blocks spread over the cores (OpenMP), the file's largest cost.
void put_cell(fmt::memory_buffer& out, double v) {
  if (std::isfinite(v)) fmt::format_to(std::back_inserter(out), FMT_COMPILE("{:.3f}"), v);
}

struct Row {
  std::string_view placement;
  const PairStats* pair;
};

// A unit id as matrix_csv writes it (format_unit_id), without a string.
void put_unit(fmt::memory_buffer& out, int id, bool across) {
  if (across) {
    const UnitRef u = unit_ref(id, 0);
    fmt::format_to(std::back_inserter(out), FMT_COMPILE("g{}.{},"), u.device, u.unit);
  } else {
    fmt::format_to(std::back_inserter(out), FMT_COMPILE("{},"), id);
  }
}

void put_row(fmt::memory_buffer& out, Path via, bool across, const Row& row) {
  const PairStats& p = *row.pair;
  const Summary& rtt = p.rtt_ns;
  put_unit(out, p.a, across);
  put_unit(out, p.b, across);
  if (via == Path::Dsm)
    fmt::format_to(std::back_inserter(out), FMT_COMPILE("dsm,{},,{},,,{},"), row.placement, p.pass, p.flag_device);
  else
    fmt::format_to(std::back_inserter(out), FMT_COMPILE("global,{},{},{},{},{},{},"), row.placement, p.home_class,
                   p.pass, p.first_flag, p.second_flag, p.flag_device);
  for (double v : {p.oneway_median_ns(), p.line_correction_ns, rtt.median, rtt.p05 / 2.0, rtt.p95 / 2.0, rtt.min / 2.0,
                   p.cycles_median, p.cold_ns}) {
    put_cell(out, v);
    out.push_back(',');
  }
  fmt::format_to(std::back_inserter(out), FMT_COMPILE("{},{},{}\n"), rtt.count, p.iters, p.timed_out ? 1 : 0);
}

}  // namespace

std::string pairs_csv(const std::vector<const LatencyMap*>& maps, Path via) {
  std::vector<Row> rows;
  bool across = false;
  for (const LatencyMap* map : maps) {
    across |= ids_span_devices(map->units());
    for (const PairStats& p : map->pairs) rows.push_back({to_string(map->placement()), &p});
  }
  constexpr std::size_t kBlockRows = 4096;
  std::vector<fmt::memory_buffer> blocks((rows.size() + kBlockRows - 1) / kBlockRows);
  const auto block_count = static_cast<std::ptrdiff_t>(blocks.size());
#pragma omp parallel for schedule(dynamic)
  for (std::ptrdiff_t b = 0; b < block_count; ++b) {
    const std::size_t begin = static_cast<std::size_t>(b) * kBlockRows;
    for (std::size_t i = begin; i < std::min(rows.size(), begin + kBlockRows); ++i)
      put_row(blocks[static_cast<std::size_t>(b)], via, across, rows[i]);
  }

  std::string csv =
      "a,b,via,placement,home_class,pass,first_flag,second_flag,flags_on,oneway_ns_median,line_correction_ns,"
      "rtt_ns_median,"
      "p05_ns,p95_ns,min_ns,cycles_median,cold_ns,samples,iters,timed_out\n";
  std::size_t size = csv.size();
  for (const auto& block : blocks) size += block.size();
  csv.reserve(size);
  for (const auto& block : blocks) csv.append(block.data(), block.size());
  return csv;
}

}  // namespace cumap
