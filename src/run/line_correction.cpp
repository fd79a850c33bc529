#include "run/line_correction.hpp"

#include <cmath>
#include <cstddef>

#include "cumap/protocol.hpp"

namespace cumap {
namespace {

// Each row's mean over the lines of each class (NaN for a class it has no
// value in).
std::vector<std::vector<double>> class_means(const LineLatencyTable& t, const HomeClasses& classes) {
  const auto count_of = static_cast<std::size_t>(classes.class_count);
  std::vector<std::vector<double>> sum(count_of, std::vector<double>(t.units.size(), 0.0));
  std::vector<std::vector<int>> count(count_of, std::vector<int>(t.units.size(), 0));
  for (std::size_t r = 0; r < t.units.size(); ++r)
    for (std::size_t c = 0; c < t.lines.size(); ++c) {
      const double v = t.ns_at(r, c);
      const auto cls = static_cast<std::size_t>(classes.line_class[c]);
      if (std::isfinite(v)) sum[cls][r] += v, ++count[cls][r];
    }
  for (std::size_t k = 0; k < sum.size(); ++k)
    for (std::size_t r = 0; r < t.units.size(); ++r) sum[k][r] = count[k][r] > 0 ? sum[k][r] / count[k][r] : kNaN;
  return sum;
}

}  // namespace

LineCorrection::LineCorrection(const RunHomes& homes) {
  for (const HomesResult& h : homes) {
    DeviceTable& d = devices_[h.device];
    d.homes = &h;
    for (std::size_t c = 0; c < h.table.lines.size(); ++c) d.column_of_line[h.table.lines[c]] = c;
    d.own.table = &h.table;
    for (std::size_t r = 0; r < h.unit_ids.size(); ++r) {
      d.own.row_of_unit[h.unit_ids[r]] = r;
      device_of_unit_[h.unit_ids[r]] = h.device;
    }
    d.own.class_mean = class_means(h.table, h.classes);
    // The remote table has the same lines, in the same order.
    if (h.remote.lines == h.table.lines) {
      d.remote.table = &h.remote;
      for (std::size_t r = 0; r < h.remote.units.size(); ++r) d.remote.row_of_unit[unit_id(h.remote.units[r])] = r;
      d.remote.class_mean = class_means(h.remote, h.classes);
    }
  }
}

double LineCorrection::DeviceTable::excess(const Rows& rows, std::size_t row, std::uint64_t flag) const {
  const auto column = column_of_line.find(flag / protocol::kLineBytes * protocol::kLineBytes);
  if (column == column_of_line.end()) return kNaN;
  const auto cls = static_cast<std::size_t>(homes->classes.line_class[column->second]);
  return rows.table->ns_at(row, column->second) - rows.class_mean[cls][row];
}

double LineCorrection::oneway_ns(int a, int b, int flag_device, std::uint64_t first_flag,
                                 std::uint64_t second_flag) const {
  const auto device = devices_.find(flag_device);
  if (device == devices_.end() || !device_of_unit_.contains(a) || !device_of_unit_.contains(b)) return 0.0;
  const DeviceTable& d = device->second;
  double round_trip = 0.0;
  bool any = false;
  for (int unit : {a, b}) {
    // The unit's row among the flag device's own units, else among the
    // other devices' units that reached its lines over the link.
    const Rows* rows = &d.own;
    auto row = rows->row_of_unit.find(unit);
    if (row == rows->row_of_unit.end()) {
      rows = &d.remote;
      row = rows->row_of_unit.find(unit);
      if (row == rows->row_of_unit.end()) continue;  // no remote table: the link's term is unknown
    }
    round_trip += (d.excess(*rows, row->second, first_flag) + d.excess(*rows, row->second, second_flag)) / 2;
    any = true;
  }
  return any && std::isfinite(round_trip) ? round_trip / 2 : 0.0;
}

void apply_line_correction(LatencyMap& map, const LineCorrection& correction) {
  // A class of a map across two GPUs has ~800 000 values, each a few lookups
  // in the (read-only) tables: spread them over the cores (OpenMP).
  const auto count = static_cast<std::ptrdiff_t>(map.pairs.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    PairStats& p = map.pairs[static_cast<std::size_t>(i)];
    p.line_correction_ns = correction.oneway_ns(p.a, p.b, p.flag_device, p.first_flag, p.second_flag);
  }
}

}  // namespace cumap
