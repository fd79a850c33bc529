#include "report/gpus_csv.hpp"

#include <fmt/format.h>

namespace cumap {

std::string gpus_csv(const RunSummary& s) {
  std::string out = "placement,gpu_a,gpu_b,flags_on,link,cells,oneway_ns_median,p05_ns,p95_ns,min_ns,max_ns\n";
  for (const RunSummary::Map& m : s.maps)
    for (const RunSummary::GpuPair& p : m.gpu_pairs) {
      const GpuPairRow& r = p.row;
      out += fmt::format("{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}\n", m.placement, r.gpu_a, r.gpu_b,
                         r.flags_on, p.link, r.cells, r.oneway_ns.median, r.oneway_ns.p05, r.oneway_ns.p95,
                         r.oneway_ns.min, r.oneway_ns.max);
    }
  return out;
}

}  // namespace cumap
