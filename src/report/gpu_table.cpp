// The GPU x GPU table of a map across GPUs, from the matrices a placement
// already holds: the headline (both sides of every pair across GPUs) and one
// matrix per GPU that held flags (PlacementResult::flags_on_ns).
#include "report/gpu_table.hpp"

#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "core/units.hpp"

namespace cumap {
namespace {

// Values of `m` by (row GPU, column GPU): every cell once (r < c) for an
// unordered map, every direction for an ordered one.
std::map<std::pair<int, int>, std::vector<double>> cells_by_gpu_pair(const ValueMatrix& m, bool ordered) {
  std::map<std::pair<int, int>, std::vector<double>> out;
  for (std::size_t r = 0; r < m.size(); ++r)
    for (std::size_t c = 0; c < m.size(); ++c) {
      if (r == c || (!ordered && c < r)) continue;
      const double v = m.at(r, c);
      if (!std::isfinite(v)) continue;
      int ga = device_of_id(m.units[r]), gb = device_of_id(m.units[c]);
      if (!ordered && gb < ga) std::swap(ga, gb);
      out[{ga, gb}].push_back(v);
    }
  return out;
}

std::string link_of(const nlohmann::json& links, int a, int b) {
  if (a == b) return "same GPU";
  for (const auto& l : links)
    if ((l.value("gpu_a", -1) == a && l.value("gpu_b", -1) == b) || (l.value("gpu_a", -1) == b && l.value("gpu_b", -1) == a))
      return l.value("link", std::string("unknown"));
  return "unknown";
}

}  // namespace

std::vector<GpuPairRow> gpu_table(const PlacementResult& p) {
  const ValueMatrix& m = p.headline_ns;
  if (!ids_span_devices(m.units)) return {};
  const bool ordered = p.headline.ordered;
  // Each side holding the flags, from its own lines only: its matrix split
  // by GPU pair once, not once per pair.
  std::map<int, std::map<std::pair<int, int>, std::vector<double>>> by_flags_device;
  for (const auto& [device, side] : p.flags_on_ns) by_flags_device[device] = cells_by_gpu_pair(side, ordered);
  std::vector<GpuPairRow> rows;
  for (auto& [gpus, values] : cells_by_gpu_pair(m, ordered)) {
    const auto [a, b] = gpus;
    rows.push_back({a, b, a == b ? fmt::format("g{}", a) : "both", values.size(), summarize(values)});
    if (a == b) continue;
    for (const auto& [device, cells] : by_flags_device) {
      if (device != a && device != b) continue;
      const auto it = cells.find(gpus);
      if (it == cells.end()) continue;
      rows.push_back({a, b, fmt::format("g{}", device), it->second.size(), summarize(it->second)});
    }
  }
  return rows;
}

std::string gpus_csv(const std::vector<PlacementResult>& placements, const nlohmann::json& links) {
  std::string out = "placement,gpu_a,gpu_b,flags_on,link,cells,oneway_ns_median,p05_ns,p95_ns,min_ns,max_ns\n";
  for (const PlacementResult& p : placements)
    for (const GpuPairRow& r : gpu_table(p))
      out += fmt::format("{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}\n", to_string(p.placement), r.gpu_a,
                         r.gpu_b, r.flags_on, link_of(links, r.gpu_a, r.gpu_b), r.cells, r.oneway_ns.median,
                         r.oneway_ns.p05, r.oneway_ns.p95, r.oneway_ns.min, r.oneway_ns.max);
  return out;
}

nlohmann::json gpus_json(const std::vector<PlacementResult>& placements, const nlohmann::json& links) {
  nlohmann::json rows = nlohmann::json::array();
  for (const PlacementResult& p : placements)
    for (const GpuPairRow& r : gpu_table(p))
      rows.push_back({{"placement", to_string(p.placement)},
                      {"gpu_a", r.gpu_a},
                      {"gpu_b", r.gpu_b},
                      {"flags_on", r.flags_on},
                      {"link", link_of(links, r.gpu_a, r.gpu_b)},
                      {"cells", r.cells},
                      {"oneway_ns_median", r.oneway_ns.median},
                      {"p05_ns", r.oneway_ns.p05},
                      {"p95_ns", r.oneway_ns.p95},
                      {"min_ns", r.oneway_ns.min},
                      {"max_ns", r.oneway_ns.max}});
  return rows;
}

}  // namespace cumap
