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
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cmath>
#include <limits>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "cumap/error.hpp"
#include "cumap/protocol.hpp"
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

// One row of pairs.csv being read: each field by column name, checked as
// this cumap writes it (decimal numbers only, no nan or inf, integers in
// their type's range), the line number in every complaint.
class RowReader {
 public:
  RowReader(const std::map<std::string, std::size_t>& columns, const std::vector<std::string>& fields,
            std::size_t line)
      : columns_(columns), fields_(fields), line_(line) {}

  bool has(const char* name) const { return columns_.contains(name); }
  const std::string& text(const char* name) const { return fields_[columns_.at(name)]; }

  [[noreturn]] void refuse(const char* name, std::string_view why) const {
    throw UsageError(fmt::format("pairs.csv line {}: {} \"{}\" {}", line_, name, printable_excerpt(text(name)), why));
  }

  // A whole number from `low` to `high`, written in decimal digits (a sign
  // only where `low` is negative).
  template <typename Int>
  Int whole(const char* name, Int low, Int high) const {
    const std::string& t = text(name);
    Int v{};
    const char* end = t.data() + t.size();
    const auto [ptr, ec] = std::from_chars(t.data(), end, v, 10);
    if (t.empty()) refuse(name, "is empty; a whole number is expected");
    if (ec == std::errc::invalid_argument || ptr != end) refuse(name, "is not a whole decimal number");
    if (ec == std::errc::result_out_of_range || v < low || v > high || (low >= 0 && t.front() == '-'))
      refuse(name, fmt::format("is out of range ({} to {})", low, high));
    return v;
  }
  int whole_int(const char* name, int low) const { return whole<int>(name, low, std::numeric_limits<int>::max()); }

  // A finite decimal number, or NaN for an empty cell (a value that does not
  // exist); `non_negative` for times, which cannot be below zero.
  double number(const char* name, bool non_negative) const {
    const std::string& t = text(name);
    if (t.empty()) return kNaN;
    double v = 0;
    const char* end = t.data() + t.size();
    // from_chars takes no sign '+', no spaces and no hex (general format);
    // it does take "inf" and "nan", which no cumap writes (empty cells are).
    const auto [ptr, ec] = std::from_chars(t.data(), end, v, std::chars_format::general);
    if (ec != std::errc{} || ptr != end || !std::isfinite(v)) refuse(name, "is not a finite decimal number");
    if (non_negative && v < 0) refuse(name, "is negative; a time cannot be");
    return v;
  }

  int unit(const char* name) const {
    const auto id = parse_unit_id(text(name));
    if (!id || text(name).find_first_of(" \t") != std::string::npos) refuse(name, "is not a unit id");
    return *id;
  }

 private:
  const std::map<std::string, std::size_t>& columns_;
  const std::vector<std::string>& fields_;
  std::size_t line_;
};

// The byte offsets of flags: an arena is at most 1 GiB (--home-lines x
// --home-stride), and a flag is a 4-byte word in it.
constexpr std::uint64_t kMaxFlagOffset = std::uint64_t{1} << 30;

PlacedPairStats read_row(const RowReader& row) {
  PlacedPairStats out;
  PairStats& p = out.stats;
  try {
    out.placement = placement_from_string(row.text("placement"));
  } catch (const UsageError&) {
    row.refuse("placement", "is not a placement (same-line, split-line or cross-home)");
  }
  // Files of older cumaps have no via column: they measured through memory.
  if (row.has("via")) {
    if (row.text("via") == "dsm") out.via = Path::Dsm;
    else if (row.text("via") != "global") row.refuse("via", "is not a path (global or dsm)");
  }
  const bool dsm = out.via == Path::Dsm;
  p.a = row.unit("a");
  p.b = row.unit("b");
  if (p.a == p.b) row.refuse("b", "is the pair's first unit too");
  p.timed_out = [&] {
    if (row.text("timed_out") == "1") return true;
    if (row.text("timed_out") != "0") row.refuse("timed_out", "is neither 0 nor 1");
    return false;
  }();
  // The dsm path has no flag line: its class and flags are empty (0, as
  // that path plans them); through memory every row names them.
  const auto on_a_line = [&](const char* name) { return !(dsm && row.text(name).empty()); };
  if (on_a_line("home_class")) p.home_class = row.whole_int("home_class", 0);
  p.pass = row.whole_int("pass", 0);
  const auto flag = [&](const char* name) -> std::uint64_t {
    if (!on_a_line(name)) return 0;
    const auto offset = row.whole<std::uint64_t>(name, 0, kMaxFlagOffset);
    if (offset % protocol::kFlagBytes != 0)
      row.refuse(name, fmt::format("is not a multiple of {} bytes (a flag word)", protocol::kFlagBytes));
    return offset;
  };
  p.first_flag = flag("first_flag");
  p.second_flag = flag("second_flag");
  // p05, p95 and min are one-way in the file, the statistics round trips.
  const int samples = row.whole_int("samples", 0);
  p.rtt_ns = {row.number("rtt_ns_median", true), 2 * row.number("p05_ns", true), 2 * row.number("p95_ns", true),
              2 * row.number("min_ns", true),    kNaN,                           samples};
  p.cycles_median = row.number("cycles_median", true);
  p.cold_ns = row.number("cold_ns", true);
  // Files of older cumaps have no correction column: nothing was subtracted;
  // and no flags_on column: they measured one device, device 0.
  if (row.has("line_correction_ns")) p.line_correction_ns = row.number("line_correction_ns", false);
  if (row.has("flags_on")) p.flag_device = row.whole_int("flags_on", 0);
  p.iters = row.whole_int("iters", 0);
  // A measured pair has its samples, round trips and median; a timed-out one
  // is measured again whatever it holds.
  if (!p.timed_out) {
    if (samples < 1) row.refuse("samples", "is less than 1 for a pair that did not time out");
    if (p.iters < 1) row.refuse("iters", "is less than 1 for a pair that did not time out");
    if (std::isnan(p.rtt_ns.median)) row.refuse("rtt_ns_median", "is empty for a pair that did not time out");
  }
  return out;
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
      for (std::size_t i = 0; i < f.size(); ++i)
        if (!col.emplace(f[i], i).second)
          throw UsageError(fmt::format("pairs.csv has the column \"{}\" twice", printable_excerpt(f[i])));
      for (const char* needed : {"a", "b", "placement", "home_class", "pass", "first_flag", "second_flag",
                                 "rtt_ns_median", "p05_ns", "p95_ns", "min_ns", "cycles_median", "cold_ns", "samples",
                                 "iters", "timed_out"})
        if (!col.contains(needed)) throw UsageError(fmt::format("pairs.csv has no column \"{}\"", needed));
      continue;
    }
    if (line.empty()) continue;
    if (f.size() != col.size())
      throw UsageError(fmt::format("pairs.csv line {}: {} fields, the header has {}", line_no, f.size(), col.size()));
    out.push_back(read_row(RowReader(col, f, line_no)));
    out.back().line = line_no;
  }
  return out;
}

}  // namespace cumap
