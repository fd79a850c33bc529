// From raw round-trip samples to per-pair statistics and one-way matrices.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <unordered_map>
#include <vector>

#include "cumap/matrix.hpp"

namespace cumap {
namespace {

// Per cell: the one-way medians of every line measured there, the home class
// of each, and whether any line of that pair timed out.
struct CellCopies {
  std::vector<double> oneway;    // less each line's correction: what the map shows
  std::vector<double> measured;  // as measured: how much the lines differ
  std::vector<int> home_class;
  bool timed_out = false;
};

// A cell's value: the median over its lines, taken per home class, and the
// classes weighted equally (their mean). Why not one median over all lines:
// with the lines split evenly between a near and a far class that median is
// the midpoint between the slowest near line and the fastest far line, so two
// extreme lines would decide it.
double balanced_median(const CellCopies& cell) {
  std::map<int, std::vector<double>> by_class;
  for (std::size_t i = 0; i < cell.oneway.size(); ++i) by_class[cell.home_class[i]].push_back(cell.oneway[i]);
  if (by_class.empty()) return kNaN;
  double sum = 0;
  for (const auto& [cls, values] : by_class) sum += summarize(values).median;
  return sum / static_cast<double>(by_class.size());
}

// Collects each pair's copies into matrix cells. Unordered maps put every
// pair in both (a,b) and (b,a); ordered maps only in (a,b), since there the
// direction is the measured quantity.
std::vector<CellCopies> cells_of(const LatencyMap& map) {
  const std::size_t n = map.units().size();
  std::unordered_map<int, std::size_t> index;
  for (std::size_t i = 0; i < n; ++i) index[map.units()[i]] = i;

  std::vector<CellCopies> cells(n * n);
  const auto add = [&](std::size_t r, std::size_t c, const PairStats& p) {
    CellCopies& cell = cells[r * n + c];
    if (p.timed_out) cell.timed_out = true;
    else if (std::isfinite(p.rtt_ns.median)) {
      cell.oneway.push_back(p.corrected_oneway_ns());
      cell.measured.push_back(p.oneway_median_ns());
      cell.home_class.push_back(p.home_class);
    }
  };
  for (const PairStats& p : map.pairs) {
    const auto ia = index.find(p.a), ib = index.find(p.b);
    if (ia == index.end() || ib == index.end() || p.a == p.b) continue;
    add(ia->second, ib->second, p);
    if (!map.spec.ordered) add(ib->second, ia->second, p);
  }
  return cells;
}

}  // namespace

LatencyMap summarize_measurements(const std::vector<PairMeasurement>& raw, MapSpec spec,
                                  const std::function<int(int tag)>& home_class_of_tag,
                                  const std::function<int(int tag)>& pass_of_tag) {
  LatencyMap map;
  map.spec = std::move(spec);
  map.pairs.resize(raw.size());
  const int iters = map.spec.iters;
  // A map over several devices names units by unit_id(); one device by the unit's own id.
  const bool several_devices = std::any_of(map.spec.units.begin(), map.spec.units.end(),
                                           [](int u) { return u >= kDeviceUnitStride; });
  const auto id = [&](UnitRef u) { return several_devices ? unit_id(u) : u.unit; };

  // A full GPU run has tens of thousands of pair x line entries, each sorting
  // its samples; they are independent, so spread them over the cores.
  const auto count = static_cast<std::ptrdiff_t>(raw.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    const PairMeasurement& m = raw[static_cast<std::size_t>(i)];
    PairStats& s = map.pairs[static_cast<std::size_t>(i)];
    s.a = id(m.a);
    s.b = id(m.b);
    s.pass = pass_of_tag(m.tag);
    s.home_class = home_class_of_tag(m.tag);
    s.first_flag = m.flags.first;
    s.second_flag = m.flags.second;
    s.rtt_ns = summarize(m.rtt_ns);
    if (!m.rtt_cycles.empty()) s.cycles_median = summarize(m.rtt_cycles).median;
    s.cold_ns = m.cold_rtt_ns;
    s.iters = iters;
    s.timed_out = m.timed_out;
  }
  return map;
}

LatencyMap merge_maps(const std::vector<LatencyMap>& maps, MapSpec spec) {
  LatencyMap merged;
  merged.spec = std::move(spec);
  for (const LatencyMap& m : maps) merged.pairs.insert(merged.pairs.end(), m.pairs.begin(), m.pairs.end());
  return merged;
}

ValueMatrix LatencyMap::oneway_ns() const {
  ValueMatrix m = ValueMatrix::filled(units(), kNaN);
  const std::vector<CellCopies> cells = cells_of(*this);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    // One timed-out line makes the whole cell unreliable: show it as missing
    // rather than as the median of whatever lines happened to finish.
    if (cells[i].timed_out) continue;
    m.values[i] = balanced_median(cells[i]);
  }
  return m;
}

ValueMatrix LatencyMap::line_spread_ns() const {
  ValueMatrix m = ValueMatrix::filled(units(), kNaN);
  const std::vector<CellCopies> cells = cells_of(*this);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].timed_out || cells[i].measured.empty()) continue;
    const auto [lo, hi] = std::minmax_element(cells[i].measured.begin(), cells[i].measured.end());
    m.values[i] = *hi - *lo;
  }
  return m;
}

std::vector<PairStats> LatencyMap::timed_out() const {
  std::vector<PairStats> out;
  for (const PairStats& p : pairs)
    if (p.timed_out) out.push_back(p);
  return out;
}

}  // namespace cumap
