#include "report/homes_csv.hpp"

#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/units.hpp"

namespace cumap {

std::string homes_csv(const RunHomes& homes) {
  std::vector<int> ids;
  for (const HomesResult& h : homes) ids.insert(ids.end(), h.unit_ids.begin(), h.unit_ids.end());
  const bool across = ids_span_devices(ids);
  // Across devices a row also says whose lines they are: a unit's own
  // device's, or (the remote table) another's, over the link.
  std::string out = across ? "unit,lines_on,line_offset,home_class,cycles,ns\n" : "unit,line_offset,home_class,cycles,ns\n";
  const auto rows = [&](const HomesResult& h, const LineLatencyTable& t) {
    for (std::size_t u = 0; u < t.units.size(); ++u)
      for (std::size_t l = 0; l < t.lines.size(); ++l) {
        const std::size_t i = u * t.lines.size() + l;
        const auto cell = [](double v) { return std::isfinite(v) ? fmt::format("{:.2f}", v) : std::string(); };
        out += format_unit_id(across ? unit_id(t.units[u]) : h.unit_ids[u], across) + ",";
        if (across) out += fmt::format("{},", h.device);
        out += fmt::format("{},{},{},{}\n", t.lines[l], h.classes.line_class[l],
                           cell(t.cycles.empty() ? kNaN : t.cycles[i]), cell(t.ns[i]));
      }
  };
  for (const HomesResult& h : homes) {
    rows(h, h.table);
    rows(h, h.remote);
  }
  return out;
}

}  // namespace cumap
