// gpus.csv and meta.json's "gpus": the GPU x GPU table of a map across GPUs
// (PlacementResult::gpu_table) with the link between each two GPUs.
#include "report/gpu_table.hpp"

#include <fmt/format.h>

#include "report/json_number.hpp"

namespace cumap {

std::string gpu_link(const DeviceInfo& device, int a, int b) {
  if (a == b) return "same GPU";
  for (const DeviceInfo::Link& l : device.links)
    if ((l.gpu_a == a && l.gpu_b == b) || (l.gpu_a == b && l.gpu_b == a)) return l.link;
  return "unknown";
}

std::string gpus_csv(const MapResult& result) {
  std::string out = "placement,gpu_a,gpu_b,flags_on,link,cells,oneway_ns_median,p05_ns,p95_ns,min_ns,max_ns\n";
  for (const PlacementResult& p : result.placements)
    for (const GpuPairRow& r : p.gpu_table)
      out += fmt::format("{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}\n", to_string(p.placement), r.gpu_a,
                         r.gpu_b, r.flags_on, gpu_link(result.device, r.gpu_a, r.gpu_b), r.cells,
                         r.oneway_ns.median, r.oneway_ns.p05, r.oneway_ns.p95, r.oneway_ns.min, r.oneway_ns.max);
  return out;
}

nlohmann::json gpus_json(const MapResult& result) {
  nlohmann::json rows = nlohmann::json::array();
  for (const PlacementResult& p : result.placements)
    for (const GpuPairRow& r : p.gpu_table)
      rows.push_back({{"placement", to_string(p.placement)},
                      {"gpu_a", r.gpu_a},
                      {"gpu_b", r.gpu_b},
                      {"flags_on", r.flags_on},
                      {"link", gpu_link(result.device, r.gpu_a, r.gpu_b)},
                      {"cells", r.cells},
                      {"oneway_ns_median", r.oneway_ns.median},
                      {"p05_ns", r.oneway_ns.p05},
                      {"p95_ns", r.oneway_ns.p95},
                      {"min_ns", r.oneway_ns.min},
                      {"max_ns", r.oneway_ns.max}});
  return rows;
}

nlohmann::json cross_gpu_structure_json(const MapResult& result) {
  nlohmann::json rows = nlohmann::json::array();
  for (const PlacementResult& p : result.placements)
    for (const CrossGpuStructureRow& r : p.cross_gpu_structure)
      rows.push_back({{"placement", to_string(p.placement)},
                      {"gpu_a", r.gpu_a},
                      {"gpu_b", r.gpu_b},
                      {"flags_on", fmt::format("g{}", r.flags_on)},
                      {"home_class", r.home_class},
                      {"side_a", r.side_a},
                      {"side_b", r.side_b},
                      {"median_ns", number_or_null(r.median_ns)},
                      {"p05_ns", number_or_null(r.p05_ns)},
                      {"p95_ns", number_or_null(r.p95_ns)},
                      {"cells", r.cells}});
  return rows;
}

}  // namespace cumap
