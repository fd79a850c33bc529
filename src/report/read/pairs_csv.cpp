// pairs.csv read back (pairs_csv.hpp): the file report/pairs_csv.cpp
// writes, each row checked through the one row reader (csv_row.hpp).
#include "report/read/pairs_csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "cumap/protocol.hpp"
#include "report/read/csv_row.hpp"

namespace cumap {
namespace {

// The byte offsets of flags: an arena is at most 1 GiB (--home-lines x
// --home-stride), and a flag is a 4-byte word in it.
constexpr long long kMaxFlagOffset = 1LL << 30;

PlacedPairStats read_row(const CsvRow& row) {
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
    const auto offset = static_cast<std::uint64_t>(row.whole(name, 0, kMaxFlagOffset));
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
  std::optional<CsvColumns> columns;
  std::size_t line_no = 0;
  std::vector<std::string> f;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    f.clear();
    for (std::size_t b = 0;;) {
      const std::size_t e = std::min(line.find(',', b), line.size());
      f.emplace_back(line.substr(b, e - b));
      if (e == line.size()) break;
      b = e + 1;
    }
    if (line_no == 1) {
      columns.emplace("pairs.csv", f,
                      std::initializer_list<const char*>{"a", "b", "placement", "home_class", "pass", "first_flag",
                                                         "second_flag", "rtt_ns_median", "p05_ns", "p95_ns", "min_ns",
                                                         "cycles_median", "cold_ns", "samples", "iters", "timed_out"});
      continue;
    }
    if (line.empty()) continue;
    out.push_back(read_row(CsvRow(*columns, f, line_no)));
    out.back().line = line_no;
  }
  return out;
}

}  // namespace cumap
