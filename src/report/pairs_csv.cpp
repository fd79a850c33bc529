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
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "core/units.hpp"
#include "cumap/plan.hpp"

namespace cumap {
namespace {

// A map across two GPUs writes 3.3 million rows: they are formatted with
// compiled format strings straight into buffers (no string per cell), in
// blocks spread over the cores (OpenMP), the file's largest cost.
//
// A value with three decimals, as "{:.3f}" writes it, from its integer
// thousandths: fmt's fixed-precision path for a double (exact decimal
// digits, then rounding) was two thirds of the file's time, integers are
// cheap. Rounding half away from zero of v x 1000 can differ from the exact
// decimal rounding in the last digit only when v lies within a rounding
// error of a half thousandth of a nanosecond, far below what was measured.
void put_cell(fmt::memory_buffer& out, double v) {
  if (!std::isfinite(v)) return;
  const double thousandths = std::round(std::fabs(v) * 1000.0);
  if (thousandths >= 1e18) {  // beyond 64-bit thousandths: no value of a run, but still a number
    fmt::format_to(std::back_inserter(out), FMT_COMPILE("{:.3f}"), v);
    return;
  }
  const auto t = static_cast<std::uint64_t>(thousandths);
  if (v < 0 && t != 0) out.push_back('-');
  fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}.{:03}"), t / 1000, t % 1000);
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


constexpr std::string_view kHeader =
    "a,b,via,placement,home_class,pass,first_flag,second_flag,flags_on,oneway_ns_median,line_correction_ns,"
    "rtt_ns_median,"
    "p05_ns,p95_ns,min_ns,cycles_median,cold_ns,samples,iters,timed_out\n";

// The rows of `maps` in blocks (no header).
std::vector<std::string> row_blocks(const std::vector<const LatencyMap*>& maps, Path via) {
  std::vector<Row> rows;
  bool across = false;
  for (const LatencyMap* map : maps) {
    across |= ids_span_devices(map->units());
    for (const PairStats& p : map->pairs) rows.push_back({to_string(map->placement()), &p});
  }
  constexpr std::size_t kBlockRows = 4096;
  std::vector<std::string> blocks((rows.size() + kBlockRows - 1) / kBlockRows);
  const auto block_count = static_cast<std::ptrdiff_t>(blocks.size());
#pragma omp parallel for schedule(dynamic)
  for (std::ptrdiff_t b = 0; b < block_count; ++b) {
    fmt::memory_buffer text;
    const std::size_t begin = static_cast<std::size_t>(b) * kBlockRows;
    for (std::size_t i = begin; i < std::min(rows.size(), begin + kBlockRows); ++i)
      put_row(text, via, across, rows[i]);
    blocks[static_cast<std::size_t>(b)].assign(text.data(), text.size());
  }
  return blocks;
}

}  // namespace

std::string pairs_csv(const std::vector<const LatencyMap*>& maps, Path via) {
  std::string csv(kHeader);
  for (const std::string& block : row_blocks(maps, via)) csv += block;
  return csv;
}

PairsCsvFile::PairsCsvFile(OutputSet& out, Path via, std::vector<Placement> placements)
    : out_(out), via_(via), placements_(std::move(placements)), file_(out.open_file("pairs.csv")) {
  const std::string_view header = kHeader;
  file_->append(std::span(&header, 1));
}

void PairsCsvFile::write(std::span<const LatencyMap> per_class) {
  std::vector<const LatencyMap*> maps;
  for (const LatencyMap& m : per_class) maps.push_back(&m);
  const std::vector<std::string> blocks = row_blocks(maps, via_);
  const std::vector<std::string_view> pieces(blocks.begin(), blocks.end());
  file_->append(pieces);
}

void PairsCsvFile::add(Placement placement, std::span<const LatencyMap> per_class) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (added_ >= placements_.size() || placements_[added_] != placement) return;
  write(per_class);
  ++added_;
}

void PairsCsvFile::finish(const MapResult& result) {
  const std::lock_guard<std::mutex> lock(mutex_);
  // A result's placements are the run's, in its order, the last ones
  // missing where it was interrupted.
  for (std::size_t p = added_; p < result.placements.size(); ++p) write(result.placements[p].per_class);
  added_ = placements_.size();
  out_.finish_file(*file_, "pairs.csv");
}

}  // namespace cumap
