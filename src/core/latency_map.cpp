// From raw round-trip samples to per-pair statistics (map_matrices.cpp makes
// the matrices).
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "core/matrix.hpp"
#include "core/stats.hpp"

namespace cumap {

LatencyMap summarize_measurements(std::span<const std::vector<PairMeasurement>> parts, MapSpec spec,
                                  const std::function<int(int tag)>& home_class_of_tag,
                                  const std::function<int(int tag)>& pass_of_tag) {
  LatencyMap map;
  map.spec = std::move(spec);
  std::size_t total = 0;
  for (const std::vector<PairMeasurement>& part : parts) total += part.size();
  map.pairs.resize(total);
  const int iters = map.spec.iters;
  // A map over several devices names units by unit_id(); one device by the unit's own id.
  const bool several_devices = std::any_of(map.spec.units.begin(), map.spec.units.end(),
                                           [](int u) { return u >= kDeviceUnitStride; });
  const auto id = [&](UnitRef u) { return several_devices ? unit_id(u) : u.unit; };

  std::size_t before = 0;  // pairs of the earlier parts
  for (const std::vector<PairMeasurement>& raw : parts) {
    // A full GPU run has tens of thousands of pair x line entries, each sorting
    // its samples; they are independent, so spread them over the cores.
    const auto count = static_cast<std::ptrdiff_t>(raw.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < count; ++i) {
      const PairMeasurement& m = raw[static_cast<std::size_t>(i)];
      PairStats& s = map.pairs[before + static_cast<std::size_t>(i)];
      s.a = id(m.a);
      s.b = id(m.b);
      s.pass = pass_of_tag(m.tag);
      s.home_class = home_class_of_tag(m.tag);
      s.flag_device = m.flags.device;
      s.first_flag = m.flags.first;
      s.second_flag = m.flags.second;
      s.rtt_ns = summarize(m.rtt_ns);
      if (!m.rtt_cycles.empty()) s.cycles_median = summarize(m.rtt_cycles).median;
      s.cold_ns = m.cold_rtt_ns;
      s.iters = iters;
      s.timed_out = m.timed_out;
    }
    before += raw.size();
  }
  return map;
}

std::vector<PairStats> LatencyMap::timed_out() const {
  std::vector<PairStats> out;
  for (const PairStats& p : pairs)
    if (p.timed_out) out.push_back(p);
  return out;
}

}  // namespace cumap
