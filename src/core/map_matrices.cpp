// From per-line statistics to matrix cells: the one-way maps of a placement
// (per home class and over every class), the even/odd line-set halves, the
// line spread and each map's cell details, in one pass over the pairs. A GPU placement has about
// 280 000 pair x line values, so the cells are one array grouped by a
// counting sort, not a container per cell.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

#include "core/matrix.hpp"
#include "core/stats.hpp"

namespace cumap {
namespace {

// One line's value in one matrix cell.
struct CellEntry {
  std::uint32_t map;  // which of the maps it came from
  int home_class;
  int flag_device;  // a pair across devices has lines on each side (--flag-on both)
  bool odd_pass;
  double oneway;    // less the line's correction: what the maps show
  double measured;  // as measured: how much the lines differ
  double p05;       // the line's one-way p05 and p95, less its correction as `oneway`
  double p95;
};

// Every cell's entries, grouped by cell: cell i's are [begin[i], begin[i + 1]).
struct Cells {
  std::size_t n = 0;
  std::vector<std::size_t> begin;
  std::vector<CellEntry> entries;
  std::vector<std::vector<std::uint32_t>> timed_out;  // per map, per cell: its lines that timed out

  std::span<CellEntry> of(std::size_t cell) { return std::span(entries).subspan(begin[cell], begin[cell + 1] - begin[cell]); }
  bool any_timed_out(std::size_t cell) const {
    return std::any_of(timed_out.begin(), timed_out.end(), [&](const auto& t) { return t[cell] > 0; });
  }
};

// Collects each pair's lines into matrix cells. Ordered maps put a pair in
// (a,b), since there the direction is the measured quantity; unordered maps
// in the cell above the diagonal only, and map_matrices mirrors the values.
Cells cells_of(std::span<const LatencyMap> maps, const std::vector<int>& units, bool ordered) {
  Cells cells;
  cells.n = units.size();
  const std::size_t n = cells.n;
  // Each unit's row, looked up by id in a table: a placement has millions of
  // pair x line values, two lookups each, twice (a hash map took most of this
  // function's time). Ids are below (GPUs + 1) x kDeviceUnitStride.
  constexpr std::size_t kOutside = SIZE_MAX;
  int top = 0;
  for (int u : units) top = std::max(top, u);
  std::vector<std::size_t> index(static_cast<std::size_t>(top) + 1, kOutside);
  for (std::size_t i = 0; i < n; ++i)
    if (units[i] >= 0) index[static_cast<std::size_t>(units[i])] = i;
  const auto row_of = [&](int u) {
    return u < 0 || static_cast<std::size_t>(u) >= index.size() ? kOutside : index[static_cast<std::size_t>(u)];
  };

  // Two passes over the pairs, counting then filling, so that the entries
  // land grouped by cell without a second copy of them; each pass on every
  // core (a placement across two GPUs has 1.6 million values: 0.13 s on one
  // core). Counts and places are taken atomically, so a cell's entries land
  // in no set order: every value made from a cell sorts them first.
  cells.timed_out.assign(maps.size(), std::vector<std::uint32_t>(n * n, 0));
  cells.begin.assign(n * n + 1, 0);
  std::vector<std::size_t> next;
  for (const bool fill : {false, true}) {
    if (fill) {
      for (std::size_t i = 0; i < n * n; ++i) cells.begin[i + 1] += cells.begin[i];
      cells.entries.resize(cells.begin.back());
      next.assign(cells.begin.begin(), cells.begin.end() - 1);
    }
    for (std::size_t m = 0; m < maps.size(); ++m) {
      const std::vector<PairStats>& pairs = maps[m].pairs;
      const auto count = static_cast<std::ptrdiff_t>(pairs.size());
#pragma omp parallel for schedule(static)
      for (std::ptrdiff_t i = 0; i < count; ++i) {
        const PairStats& p = pairs[static_cast<std::size_t>(i)];
        const std::size_t ia = row_of(p.a), ib = row_of(p.b);
        if (ia == kOutside || ib == kOutside || p.a == p.b) continue;
        const std::size_t cell = ordered ? ia * n + ib : std::min(ia, ib) * n + std::max(ia, ib);
        if (p.timed_out) {
          if (!fill) std::atomic_ref(cells.timed_out[m][cell]).fetch_add(1, std::memory_order_relaxed);
        } else if (std::isfinite(p.rtt_ns.median)) {
          if (!fill) {
            std::atomic_ref(cells.begin[cell + 1]).fetch_add(1, std::memory_order_relaxed);
          } else {
            const std::size_t at = std::atomic_ref(next[cell]).fetch_add(1, std::memory_order_relaxed);
            cells.entries[at] = {static_cast<std::uint32_t>(m),
                                 p.home_class,
                                 p.flag_device,
                                 p.pass % 2 == 1,
                                 p.corrected_oneway_ns(),
                                 p.oneway_median_ns(),
                                 p.rtt_ns.p05 / 2 - p.line_correction_ns,
                                 p.rtt_ns.p95 / 2 - p.line_correction_ns};
          }
        }
      }
    }
  }
  return cells;
}

// A cell's value from the entries `keep` accepts: the median over its lines,
// taken per line set (home class and flag device), and the sets weighted
// equally (their mean). Why not one median over all lines: with the lines
// split evenly between a near and a far class that median is the midpoint
// between the slowest near line and the fastest far line, so two extreme
// lines would decide it; the two sides of a pair across devices differ the
// same way. `cell` is sorted by class, flag device, then value.
template <class Keep>
double balanced_median(std::span<const CellEntry> cell, Keep keep) {
  double sum = 0;
  int sets = 0;
  std::vector<double> values;
  for (std::size_t i = 0; i < cell.size();) {
    const int cls = cell[i].home_class, device = cell[i].flag_device;
    values.clear();
    for (; i < cell.size() && cell[i].home_class == cls && cell[i].flag_device == device; ++i)
      if (keep(cell[i])) values.push_back(cell[i].oneway);
    if (values.empty()) continue;
    sum += percentile(values, 0.5);  // sorted already
    ++sets;
  }
  return sets > 0 ? sum / sets : kNaN;
}

// The median over the lines of map `m` in `cell` of one of their values.
double median_over_lines(std::span<const CellEntry> cell, std::uint32_t m, double CellEntry::*field,
                         std::vector<double>& values) {
  values.clear();
  for (const CellEntry& e : cell)
    if (e.map == m) values.push_back(e.*field);
  if (values.empty()) return kNaN;
  std::sort(values.begin(), values.end());
  return percentile(values, 0.5);
}

}  // namespace

MapMatrices map_matrices(std::span<const LatencyMap> maps, const std::vector<int>& units, bool ordered) {
  Cells cells = cells_of(maps, units, ordered);
  MapMatrices out;
  out.per_map.assign(maps.size(), ValueMatrix::filled(units, kNaN));
  for (std::vector<ValueMatrix>* m : {&out.per_map_p05, &out.per_map_p95, &out.per_map_line_spread})
    m->assign(maps.size(), ValueMatrix::filled(units, kNaN));
  out.per_map_timed_out_lines.assign(maps.size(), ValueMatrix::filled(units, 0.0));
  for (ValueMatrix* m : {&out.combined, &out.even_passes, &out.odd_passes, &out.line_spread})
    *m = ValueMatrix::filled(units, kNaN);

  // The devices that held flags: a handful, among millions of entries.
  std::vector<int> flag_devices;
  for (const CellEntry& e : cells.entries)
    if (std::find(flag_devices.begin(), flag_devices.end(), e.flag_device) == flag_devices.end())
      flag_devices.push_back(e.flag_device);
  std::sort(flag_devices.begin(), flag_devices.end());
  if (flag_devices.size() > 1)
    for (int d : flag_devices) {
      out.per_flag_device[d] = ValueMatrix::filled(units, kNaN);
      out.per_map_flag_device[d].assign(maps.size(), ValueMatrix::filled(units, kNaN));
    }
  // In flag_devices' order: the maps are not touched in the loop.
  std::vector<ValueMatrix*> by_device;
  std::vector<std::vector<ValueMatrix>*> per_map_by_device;
  for (auto& [d, m] : out.per_flag_device) by_device.push_back(&m);
  for (auto& [d, m] : out.per_map_flag_device) per_map_by_device.push_back(&m);

  // Cells are independent: spread them over the cores (OpenMP).
  const auto cell_count = static_cast<std::ptrdiff_t>(cells.n * cells.n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t c = 0; c < cell_count; ++c) {
    const auto i = static_cast<std::size_t>(c);
    if (!ordered && i / cells.n > i % cells.n) continue;  // mirrored below
    std::span<CellEntry> cell = cells.of(i);
    std::sort(cell.begin(), cell.end(), [](const CellEntry& x, const CellEntry& y) {
      return std::tie(x.home_class, x.flag_device, x.oneway) < std::tie(y.home_class, y.flag_device, y.oneway);
    });
    std::vector<double> values;
    for (std::size_t m = 0; m < maps.size(); ++m) {
      const auto map = static_cast<std::uint32_t>(m);
      out.per_map_timed_out_lines[m].values[i] = cells.timed_out[m][i];
      out.per_map_p05[m].values[i] = median_over_lines(cell, map, &CellEntry::p05, values);
      out.per_map_p95[m].values[i] = median_over_lines(cell, map, &CellEntry::p95, values);
      double lo = INFINITY, hi = -INFINITY;
      for (const CellEntry& e : cell)
        if (e.map == map) lo = std::min(lo, e.measured), hi = std::max(hi, e.measured);
      if (lo <= hi) out.per_map_line_spread[m].values[i] = hi - lo;
      // One timed-out line makes a cell unreliable: it shows as missing rather
      // than as the median of whatever lines happened to finish.
      if (cells.timed_out[m][i]) continue;
      out.per_map[m].values[i] = balanced_median(cell, [m](const CellEntry& e) { return e.map == m; });
      for (std::size_t d = 0; d < per_map_by_device.size(); ++d)
        (*per_map_by_device[d])[m].values[i] = balanced_median(
            cell, [&](const CellEntry& e) { return e.map == m && e.flag_device == flag_devices[d]; });
    }
    if (cells.any_timed_out(i) || cell.empty()) continue;
    out.combined.values[i] = balanced_median(cell, [](const CellEntry&) { return true; });
    for (std::size_t d = 0; d < by_device.size(); ++d)
      by_device[d]->values[i] = balanced_median(cell, [&](const CellEntry& e) { return e.flag_device == flag_devices[d]; });
    out.even_passes.values[i] = balanced_median(cell, [](const CellEntry& e) { return !e.odd_pass; });
    out.odd_passes.values[i] = balanced_median(cell, [](const CellEntry& e) { return e.odd_pass; });
    const auto [lo, hi] = std::minmax_element(cell.begin(), cell.end(), [](const CellEntry& x, const CellEntry& y) {
      return x.measured < y.measured;
    });
    out.line_spread.values[i] = hi->measured - lo->measured;
  }
  if (!ordered) {
    const auto mirror = [n = cells.n](ValueMatrix& m) {
      for (std::size_t row = 1; row < n; ++row)
        for (std::size_t col = 0; col < row; ++col) m.values[row * n + col] = m.values[col * n + row];
    };
    for (ValueMatrix* m : {&out.combined, &out.even_passes, &out.odd_passes, &out.line_spread}) mirror(*m);
    for (std::vector<ValueMatrix>* maps_of : {&out.per_map, &out.per_map_p05, &out.per_map_p95,
                                              &out.per_map_line_spread, &out.per_map_timed_out_lines})
      for (ValueMatrix& m : *maps_of) mirror(m);
    for (auto& [d, m] : out.per_flag_device) mirror(m);
    for (auto& [d, maps_of] : out.per_map_flag_device)
      for (ValueMatrix& m : maps_of) mirror(m);
  }
  return out;
}

ValueMatrix LatencyMap::oneway_ns() const {
  return map_matrices(std::span(this, 1), units(), spec.ordered).combined;
}

ValueMatrix LatencyMap::line_spread_ns() const {
  return map_matrices(std::span(this, 1), units(), spec.ordered).line_spread;
}

}  // namespace cumap
