#include "report/homes_outputs.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "report/map_outputs.hpp"
#include "report/meta_json.hpp"

namespace cumap {

HeatmapTable homes_heatmap_table(const HomesResult& homes, const std::vector<int>& display_order,
                                 const Topology& display_groups, const std::string& unit_name) {
  const LineLatencyTable& t = homes.table;
  std::unordered_map<int, std::size_t> row_of;
  for (std::size_t u = 0; u < t.units.size(); ++u) row_of.emplace(homes.unit_ids[u], u);
  std::vector<std::size_t> rows;
  std::vector<int> row_units;
  for (int unit : display_order) {
    const auto it = row_of.find(unit);
    if (it == row_of.end()) continue;
    rows.push_back(it->second);
    row_units.push_back(unit);
  }
  // Lines of one class side by side: a class reads as one band whose rows
  // show which units are near it.
  std::vector<std::size_t> columns(t.lines.size());
  std::iota(columns.begin(), columns.end(), std::size_t{0});
  std::stable_sort(columns.begin(), columns.end(), [&](std::size_t a, std::size_t b) {
    return std::pair(homes.classes.line_class[a], t.lines[a]) < std::pair(homes.classes.line_class[b], t.lines[b]);
  });

  HeatmapTable table;
  table.title = fmt::format("{}s (rows) x flag lines by home class (columns)", unit_name);
  // Rows by the unit's own number: one table is one device's.
  for (std::size_t u : rows) table.rows.labels.push_back(std::to_string(t.units[u].unit));
  if (display_groups.groups.size() > 1) table.rows.groups = axis_groups(row_units, display_groups);
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::size_t l = columns[i];
    table.columns.labels.push_back(std::to_string(t.lines[l]));
    const int home_class = homes.classes.line_class[l];
    const std::string name = fmt::format("home class {}", home_class);
    if (table.columns.groups.empty() || table.columns.groups.back().name != name)
      table.columns.groups.push_back({static_cast<int>(i), static_cast<int>(i), name});
    table.columns.groups.back().end = static_cast<int>(i) + 1;
  }
  table.values.reserve(rows.size() * columns.size());
  for (std::size_t u : rows)
    for (std::size_t l : columns) table.values.push_back(t.ns_at(u, l));
  return table;
}

void add_homes_outputs(const MapResult& r, PendingFiles& files) {
  files.add("homes.csv", [&r] { return homes_csv(r.homes); });
  files.add("homes.json", [&r] { return homes_json(r.homes).dump(2) + "\n"; });
  // One picture per device: its lines are its own memory, their classes its own.
  for (const HomesResult& h : r.homes) {
    const bool several = r.homes.size() > 1;
    HeatmapStyle style;
    style.colormap = r.settings.colormap;
    style.value_label = "ns per dependent atomic";
    const std::string order = display_order_words(r);
    style.row_title = r.device.unit_name + (order.empty() ? "" : " (by " + order + ")");
    style.column_title = "flag lines by home class, then byte offset";
    style.title = fmt::format("{}{} - home discovery: {} {}s x {} flag lines, {} home class(es)", r.device.name,
                              several ? fmt::format(" (GPU {})", h.device) : "", h.table.units.size(),
                              r.device.unit_name, h.table.lines.size(), h.classes.class_count);
    const std::string name = several ? fmt::format("heatmap-homes-g{}.png", h.device) : "heatmap-homes.png";
    files.add(name, [&r, &h, style] {
      return encode_png(render_table_heatmap(
          homes_heatmap_table(h, r.display_order, r.display_groups, r.device.unit_name), style));
    });
  }
}

}  // namespace cumap
