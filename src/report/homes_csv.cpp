#include "report/homes_csv.hpp"

#include <cmath>
#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "core/units.hpp"

namespace cumap {

std::string homes_csv(const RunHomes& homes) {
  std::vector<int> ids;
  for (const HomesResult& h : homes) ids.insert(ids.end(), h.unit_ids.begin(), h.unit_ids.end());
  const bool across = ids_span_devices(ids);
  // Across two GPUs this is 540 000 rows (each GPU's units on its 512 lines,
  // and the other GPU's over the link): formatted straight into one buffer
  // with compiled format strings, as pairs.csv is (a string per cell took
  // half a second, the longest of the outputs then).
  fmt::memory_buffer out;
  const auto put = [&out](auto format, const auto&... args) { fmt::format_to(std::back_inserter(out), format, args...); };
  const auto put_cell = [&](double v) {
    if (std::isfinite(v)) put(FMT_COMPILE("{:.2f}"), v);
  };
  put(FMT_COMPILE("{}"), across ? "unit,lines_on,line_offset,home_class,cycles,ns\n" : "unit,line_offset,home_class,cycles,ns\n");
  // Across devices a row also says whose lines they are: a unit's own
  // device's, or (the remote table) another's, over the link.
  const auto rows = [&](const HomesResult& h, const LineLatencyTable& t) {
    for (std::size_t u = 0; u < t.units.size(); ++u) {
      const int id = across ? unit_id(t.units[u]) : h.unit_ids[u];
      for (std::size_t l = 0; l < t.lines.size(); ++l) {
        const std::size_t i = u * t.lines.size() + l;
        if (across) {
          const UnitRef ref = unit_ref(id, 0);
          put(FMT_COMPILE("g{}.{},{},"), ref.device, ref.unit, h.device);
        } else {
          put(FMT_COMPILE("{},"), id);
        }
        put(FMT_COMPILE("{},{},"), t.lines[l], h.classes.line_class[l]);
        put_cell(t.cycles.empty() ? kNaN : t.cycles[i]);
        out.push_back(',');
        put_cell(t.ns[i]);
        out.push_back('\n');
      }
    }
  };
  for (const HomesResult& h : homes) {
    rows(h, h.table);
    rows(h, h.remote);
  }
  return fmt::to_string(out);
}

}  // namespace cumap
