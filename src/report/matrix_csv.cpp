// The NxN matrix CSV as cumap writes it (matrix-*.csv, line-spread-*.csv);
// `cumap render` reads it back (report/read/matrix_csv.hpp), possibly after a
// trip through a spreadsheet.
#include "report/matrix_csv.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/units.hpp"

namespace cumap {

namespace {

// A cell's text: 3 decimals; NaN (and inf) stay empty.
std::string cell_text(double v) { return std::isfinite(v) ? fmt::format("{:.3f}", v) : std::string(); }

}  // namespace

ValueMatrix as_written(ValueMatrix m) {
  for (double& v : m.values) {
    const std::string text = cell_text(v);
    if (text.empty()) {
      v = kNaN;
      continue;
    }
    std::from_chars(text.data(), text.data() + text.size(), v);
  }
  return m;
}

std::string matrix_csv(const ValueMatrix& m) {
  // Across devices every id is "g<device>.<unit>" (units.hpp).
  const bool across = ids_span_devices(m.units);
  std::string out = "unit";
  for (int u : m.units) out += "," + format_unit_id(u, across);
  out += '\n';
  for (std::size_t r = 0; r < m.size(); ++r) {
    out += format_unit_id(m.units[r], across);
    for (std::size_t c = 0; c < m.size(); ++c) {
      const double v = m.at(r, c);
      out += ',';
      out += cell_text(v);
    }
    out += '\n';
  }
  return out;
}

}  // namespace cumap
