// pairs.csv: the long form, one row per pair, placement and flag line.
//
// Columns and their units, all times in nanoseconds:
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
//   cold_ns               the pair's first round trip, measured on its own (a round trip)
//   samples               samples that produced a value; iters: round trips per sample
//   timed_out             1 when the pair hit the timeout, else 0
// Empty cells mark values that do not exist (NaN).
#include <algorithm>
#include <cstddef>
#include <cmath>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "cumap/error.hpp"
#include "report/pairs_csv.hpp"
#include "core/printable.hpp"
#include "core/units.hpp"

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

namespace {

// A number of pairs.csv, or NaN for an empty cell; anything else is not a
// file this cumap wrote.
double number(const std::string& field, std::size_t line) {
  if (field.empty()) return kNaN;
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(field, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != field.size())
    throw UsageError(fmt::format("pairs.csv line {}: \"{}\" is not a number", line, printable_excerpt(field)));
  return v;
}

}  // namespace

std::vector<PlacedPairStats> parse_pairs_csv(std::string_view text) {
  // pairs.csv is cumap's own file (numbers and fixed words, never quoted), so
  // splitting on commas is exact; columns are found by name so that a file
  // with extra columns still reads.
  std::vector<PlacedPairStats> out;
  std::map<std::string, std::size_t> col;
  std::size_t line_no = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    std::vector<std::string> f;
    for (std::size_t b = 0;;) {
      const std::size_t e = std::min(line.find(',', b), line.size());
      f.emplace_back(line.substr(b, e - b));
      if (e == line.size()) break;
      b = e + 1;
    }
    if (line_no == 1) {
      for (std::size_t i = 0; i < f.size(); ++i) col[f[i]] = i;
      for (const char* needed : {"a", "b", "placement", "home_class", "pass", "first_flag", "second_flag",
                                 "rtt_ns_median", "p05_ns", "p95_ns", "min_ns", "cycles_median", "cold_ns", "samples",
                                 "iters", "timed_out"})
        if (!col.contains(needed)) throw UsageError(fmt::format("pairs.csv has no column \"{}\"", needed));
      continue;
    }
    if (line.empty()) continue;
    if (f.size() != col.size())
      throw UsageError(fmt::format("pairs.csv line {}: {} fields, the header has {}", line_no, f.size(), col.size()));
    const auto at = [&](const char* name) -> const std::string& { return f[col.at(name)]; };
    const auto whole = [&](const char* name) { return static_cast<long long>(number(at(name), line_no)); };
    // Empty on the dsm path (no flag line): 0, as that path plans them.
    const auto whole_or_zero = [&](const char* name) { return at(name).empty() ? 0LL : whole(name); };
    PlacedPairStats row;
    row.placement = placement_from_string(at("placement"));
    PairStats& p = row.stats;
    const auto unit = [&](const char* name) {
      const auto id = parse_unit_id(at(name));
      if (!id)
        throw UsageError(fmt::format("pairs.csv line {}: \"{}\" is not a unit id", line_no, printable_excerpt(at(name))));
      return *id;
    };
    p.a = unit("a");
    p.b = unit("b");
    p.home_class = static_cast<int>(whole_or_zero("home_class"));
    p.pass = static_cast<int>(whole("pass"));
    p.first_flag = static_cast<std::uint64_t>(whole_or_zero("first_flag"));
    p.second_flag = static_cast<std::uint64_t>(whole_or_zero("second_flag"));
    // p05, p95 and min are one-way in the file, the statistics round trips.
    p.rtt_ns = {number(at("rtt_ns_median"), line_no), 2 * number(at("p05_ns"), line_no),
                2 * number(at("p95_ns"), line_no), 2 * number(at("min_ns"), line_no), kNaN,
                static_cast<int>(whole("samples"))};
    p.cycles_median = number(at("cycles_median"), line_no);
    p.cold_ns = number(at("cold_ns"), line_no);
    // Files of older cumaps have no correction column: nothing was subtracted;
    // and no flags_on column: they measured one device, device 0.
    if (col.contains("line_correction_ns")) p.line_correction_ns = number(at("line_correction_ns"), line_no);
    if (col.contains("flags_on")) p.flag_device = static_cast<int>(whole("flags_on"));
    p.iters = static_cast<int>(whole("iters"));
    p.timed_out = whole("timed_out") != 0;
    out.push_back(row);
  }
  return out;
}

}  // namespace cumap
