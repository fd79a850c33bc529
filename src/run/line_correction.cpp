#include "run/line_correction.hpp"

#include <cmath>

#include "cumap/protocol.hpp"

namespace cumap {

LineCorrection::LineCorrection(const RunHomes& homes) {
  for (const HomesResult& h : homes) {
    DeviceTable& d = devices_[h.device];
    d.homes = &h;
    const LineLatencyTable& t = h.table;
    for (std::size_t r = 0; r < h.unit_ids.size(); ++r) {
      d.row_of_unit[h.unit_ids[r]] = r;
      device_of_unit_[h.unit_ids[r]] = h.device;
    }
    for (std::size_t c = 0; c < t.lines.size(); ++c) d.column_of_line[t.lines[c]] = c;

    const int classes = h.classes.class_count;
    std::vector<std::vector<double>> sum(static_cast<std::size_t>(classes), std::vector<double>(t.units.size(), 0.0));
    std::vector<std::vector<int>> count(static_cast<std::size_t>(classes), std::vector<int>(t.units.size(), 0));
    for (std::size_t r = 0; r < t.units.size(); ++r)
      for (std::size_t c = 0; c < t.lines.size(); ++c) {
        const double v = t.ns_at(r, c);
        const auto cls = static_cast<std::size_t>(h.classes.line_class[c]);
        if (std::isfinite(v)) sum[cls][r] += v, ++count[cls][r];
      }
    d.class_mean = sum;
    for (std::size_t k = 0; k < sum.size(); ++k)
      for (std::size_t r = 0; r < t.units.size(); ++r)
        d.class_mean[k][r] = count[k][r] > 0 ? sum[k][r] / count[k][r] : kNaN;
  }
}

double LineCorrection::DeviceTable::excess(std::size_t row, std::uint64_t flag) const {
  const auto column = column_of_line.find(flag / protocol::kLineBytes * protocol::kLineBytes);
  if (column == column_of_line.end()) return kNaN;
  const auto cls = static_cast<std::size_t>(homes->classes.line_class[column->second]);
  return homes->table.ns_at(row, column->second) - class_mean[cls][row];
}

double LineCorrection::oneway_ns(int a, int b, int flag_device, std::uint64_t first_flag,
                                 std::uint64_t second_flag) const {
  const auto device = devices_.find(flag_device);
  if (device == devices_.end() || !device_of_unit_.contains(a) || !device_of_unit_.contains(b)) return 0.0;
  const DeviceTable& d = device->second;
  double round_trip = 0.0;
  bool any = false;
  for (int unit : {a, b}) {
    const auto row = d.row_of_unit.find(unit);
    if (row == d.row_of_unit.end()) continue;  // on another device: over the link
    round_trip += (d.excess(row->second, first_flag) + d.excess(row->second, second_flag)) / 2;
    any = true;
  }
  return any && std::isfinite(round_trip) ? round_trip / 2 : 0.0;
}

void apply_line_correction(LatencyMap& map, const LineCorrection& correction) {
  for (PairStats& p : map.pairs)
    p.line_correction_ns = correction.oneway_ns(p.a, p.b, p.flag_device, p.first_flag, p.second_flag);
}

}  // namespace cumap
