#include "cumap/line_correction.hpp"

#include <cmath>

#include "cumap/protocol.hpp"

namespace cumap {

LineCorrection::LineCorrection(const HomesResult& homes) : homes_(&homes) {
  const LineLatencyTable& t = homes.table;
  // Maps name units as summarize_measurements does: by unit_id() when the
  // units span several devices, else by the unit's own id.
  bool several_devices = false;
  for (const UnitRef& u : t.units) several_devices |= u.device != t.units.front().device;
  for (std::size_t r = 0; r < t.units.size(); ++r)
    row_of_unit_[several_devices ? unit_id(t.units[r]) : t.units[r].unit] = r;
  for (std::size_t c = 0; c < t.lines.size(); ++c) column_of_line_[t.lines[c]] = c;

  const int classes = homes.classes.class_count;
  std::vector<std::vector<double>> sum(static_cast<std::size_t>(classes), std::vector<double>(t.units.size(), 0.0));
  std::vector<std::vector<int>> count(static_cast<std::size_t>(classes), std::vector<int>(t.units.size(), 0));
  for (std::size_t r = 0; r < t.units.size(); ++r)
    for (std::size_t c = 0; c < t.lines.size(); ++c) {
      const double v = t.ns_at(r, c);
      const auto cls = static_cast<std::size_t>(homes.classes.line_class[c]);
      if (std::isfinite(v)) sum[cls][r] += v, ++count[cls][r];
    }
  class_mean_ = sum;
  for (std::size_t k = 0; k < sum.size(); ++k)
    for (std::size_t r = 0; r < t.units.size(); ++r)
      class_mean_[k][r] = count[k][r] > 0 ? sum[k][r] / count[k][r] : kNaN;
}

double LineCorrection::excess(int unit, std::uint64_t flag) const {
  const auto row = row_of_unit_.find(unit);
  const auto column = column_of_line_.find(flag / protocol::kLineBytes * protocol::kLineBytes);
  if (row == row_of_unit_.end() || column == column_of_line_.end()) return kNaN;
  const auto cls = static_cast<std::size_t>(homes_->classes.line_class[column->second]);
  return homes_->table.ns_at(row->second, column->second) - class_mean_[cls][row->second];
}

double LineCorrection::oneway_ns(int a, int b, std::uint64_t first_flag, std::uint64_t second_flag) const {
  const double round_trip =
      (excess(a, first_flag) + excess(b, first_flag) + excess(a, second_flag) + excess(b, second_flag)) / 2;
  return std::isfinite(round_trip) ? round_trip / 2 : 0.0;
}

void apply_line_correction(LatencyMap& map, const LineCorrection& correction) {
  for (PairStats& p : map.pairs) p.line_correction_ns = correction.oneway_ns(p.a, p.b, p.first_flag, p.second_flag);
}

}  // namespace cumap
