#include "report/heatmap_png.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "core/map_result.hpp"
#include "core/stats.hpp"
#include "core/units.hpp"
#include "report/matrix_csv.hpp"

namespace cumap {
namespace {

// A label's median, or that no pair completed (never "nan").
std::string median_words(const Summary& cells, int decimals = 0) {
  return cells.count > 0 ? fmt::format("median {:.{}f} ns", cells.median, decimals) : "no pair completed";
}

// What the flags' lines were, for titles.
std::string flag_words(Path via, int home_class) {
  if (via == Path::Dsm) return "flags in shared memory";
  return home_class == MapSpec::kAllClasses ? "all home classes" : fmt::format("flags in home class {}", home_class);
}

std::optional<Topology> groups_for_display(const MapResult& r) {
  if (r.display_groups.groups.size() < 2) return std::nullopt;
  return r.display_groups;
}

// "NVIDIA H100 - same-line, cas, all home classes - one-way median 402.1 ns
// (range 301.0-611.3)"; `flags` says where the flags were ("all home
// classes", "flags in home class 1", ...).
std::string heatmap_title(const DeviceInfo& device, Placement placement, Probe probe, const std::string& flags,
                          const Summary& cells) {
  // A map whose every pair timed out has no value to name.
  if (cells.count == 0)
    return fmt::format("{} - {}, {}, {} - no pair completed", device.name, to_string(placement), to_string(probe),
                       flags);
  return fmt::format("{} - {}, {}, {} - one-way median {:.1f} ns (range {:.1f}-{:.1f})", device.name,
                     to_string(placement), to_string(probe), flags, cells.median, cells.min, cells.max);
}

// How the display order sorts the units, for axis titles: "side, then
// group", "GPU, side, then group", "group"; empty in id order.
std::string display_order_words(const MapResult& r) {
  if (r.display_groups.groups.empty()) return {};
  std::vector<std::string> keys;
  if (ids_span_devices(r.display_order)) keys.push_back("GPU");
  if (r.settings.has_homes() && class_count(r.homes) > 1) keys.push_back("side");
  if (!r.topology.groups.empty()) keys.push_back("group");
  std::string words;
  for (std::size_t i = 0; i < keys.size(); ++i)
    words += (i == 0 ? "" : i + 1 == keys.size() ? ", then " : ", ") + keys[i];
  return words;
}

// The style every map picture of the run shares: colormap, groups, axis titles.
HeatmapStyle map_style(const MapResult& r) {
  HeatmapStyle style;
  style.colormap = r.settings.colormap;
  style.groups = groups_for_display(r);
  std::tie(style.row_title, style.column_title) =
      map_axis_titles(r.device.unit_name, r.settings.ordered, display_order_words(r));
  return style;
}

}  // namespace

nlohmann::json to_json(const std::vector<PictureRecord>& pictures) {
  nlohmann::json list = nlohmann::json::array();
  for (const PictureRecord& p : pictures) {
    list.push_back({{"matrix", p.matrix},
                    {"heatmap", p.heatmap.empty() ? nlohmann::json() : nlohmann::json(p.heatmap)},
                    {"title", p.title},
                    {"panel_title", p.panel_title},
                    {"value_label", p.value_label},
                    {"row_title", p.row_title},
                    {"column_title", p.column_title},
                    {"colormap", p.colormap}});
    if (p.scale) list.back()["scale"] = {p.scale->first, p.scale->second};
  }
  return list;
}

MatrixPicture map_picture(const MapResult& r, const MapSpec& map, const ValueMatrix& oneway_ns,
                          const std::string& stem, const std::vector<const ValueMatrix*>& timed_out_lines) {
  MatrixPicture p;
  p.shown = as_written(oneway_ns.reordered(r.display_order));
  p.cells = summarize(p.shown.values);
  for (const ValueMatrix* lines : timed_out_lines) {
    if (!lines || lines->units.size() != oneway_ns.units.size()) continue;
    const ValueMatrix late = lines->reordered(r.display_order);
    for (std::size_t i = 0; i < p.shown.values.size(); ++i)
      if (std::isnan(p.shown.values[i]) && late.values[i] > 0) p.shown.values[i] = INFINITY;
  }
  p.style = map_style(r);
  p.style.title =
      heatmap_title(r.device, map.placement, r.settings.probe, flag_words(r.settings.via, map.home_class), p.cells);
  p.record = {fmt::format("matrix-{}.csv", stem), fmt::format("heatmap-{}.png", stem), p.style.title, stem,
              p.style.value_label, p.style.row_title, p.style.column_title, p.style.colormap, std::nullopt};
  return p;
}

void on_class_scale(MatrixPicture& headline, const std::vector<MatrixPicture>& classes, const Agreement& line_sets) {
  double lo = headline.cells.min, hi = headline.cells.max;
  for (const MatrixPicture& c : classes)
    if (c.cells.count > 0) lo = std::min(lo, c.cells.min), hi = std::max(hi, c.cells.max);
  if (classes.size() < 2 || headline.cells.count == 0 || !(lo < hi)) return;
  headline.style.scale = headline.record.scale = std::pair{lo, hi};
  // r well below 1 says the cells' differences are mostly which lines were used.
  headline.record.panel_title =
      fmt::format("{}, on the scale of its {} home-class maps{}", headline.record.panel_title, classes.size(),
                  line_sets.n > 0 ? fmt::format(" (cells reproduce between line sets at r {:.2f})", line_sets.pearson_r)
                                  : std::string());
}

MatrixPicture line_spread_picture(const MapResult& r, const PlacementResult& p, const std::string& name) {
  MatrixPicture picture;
  picture.shown = as_written(p.line_spread_ns.reordered(r.display_order));
  picture.cells = summarize(picture.shown.values);
  picture.style = map_style(r);
  picture.style.value_label = "line spread (ns)";
  picture.style.title = fmt::format("{} - {}, {}: largest minus smallest value over the flag lines - {}",
                                    r.device.name, to_string(p.placement), to_string(r.settings.probe),
                                    median_words(picture.cells, 1));
  picture.record = {fmt::format("line-spread-{}.csv", name), "",
                    picture.style.title,         fmt::format("line-spread-{}", name),
                    picture.style.value_label,   picture.style.row_title,
                    picture.style.column_title,  picture.style.colormap,
                    std::nullopt};
  return picture;
}

// On one scale the classes show the chip (near and far homes) and the map of
// all classes shows how flat averaging over them makes it.
std::optional<OverviewPicture> overview_picture(
    const MapResult& r, const std::vector<std::pair<std::vector<MatrixPicture>, MatrixPicture>>& placements) {
  OverviewPicture picture;
  std::size_t per_placement = 1;
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const auto& [classes, headline] = placements[i];
    const std::string placement = r.settings.has_homes() ? std::string(to_string(r.placements[i].placement)) : "dsm";
    if (classes.size() > 1) {
      for (std::size_t c = 0; c < classes.size(); ++c)
        picture.panels.push_back({fmt::format("{}, home class {} ({})", placement,
                                              r.placements[i].per_class[c].spec.home_class,
                                              median_words(classes[c].cells)),
                                  classes[c].shown});
      picture.panels.push_back(
          {fmt::format("{}, all classes ({})", placement, median_words(headline.cells)), headline.shown});
      per_placement = std::max(per_placement, classes.size() + 1);
    } else {
      picture.panels.push_back({fmt::format("{} ({})", placement, median_words(headline.cells)), headline.shown});
    }
  }
  if (picture.panels.size() < 2) return std::nullopt;
  picture.style = map_style(r);
  picture.style.panels_per_row = per_placement > 1 ? static_cast<int>(per_placement) : 0;
  picture.style.title = fmt::format("{} - one-way {} ping-pong latency, {} {}s, {} - one color scale", r.device.name,
                                    to_string(r.settings.probe), r.display_order.size(), r.device.unit_name,
                                    per_placement > 1 ? "by home class of the flags and all classes together"
                                                      : flag_words(r.settings.via, MapSpec::kAllClasses));
  return picture;
}

std::string homes_heatmap_name(const MapResult& r, const HomesResult& h) {
  return r.homes.size() > 1 ? fmt::format("heatmap-homes-g{}.png", h.device) : "heatmap-homes.png";
}

std::string homes_heatmap_png(const MapResult& r, const HomesResult& h) {
  HeatmapStyle style;
  style.colormap = r.settings.colormap;
  style.value_label = "ns per dependent atomic";
  const std::string order = display_order_words(r);
  style.row_title = r.device.unit_name + (order.empty() ? "" : " (by " + order + ")");
  style.column_title = "flag lines by home class, then byte offset";
  style.title = fmt::format("{}{} - home discovery: {} {}s x {} flag lines, {} home class(es)", r.device.name,
                            r.homes.size() > 1 ? fmt::format(" (GPU {})", h.device) : "", h.table.units.size(),
                            r.device.unit_name, h.table.lines.size(), h.classes.class_count);
  return encode_png(
      render_table_heatmap(homes_heatmap_table(h, r.display_order, r.display_groups, r.device.unit_name), style));
}

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



std::pair<std::string, std::string> map_axis_titles(const std::string& unit_name, bool ordered,
                                                    const std::string& order) {
  const std::string unit = unit_name.empty() ? "unit" : unit_name;
  const std::string by = order.empty() ? "" : " (by " + order + ")";
  if (ordered) return {"pinging " + unit + " a" + by, "answering " + unit + " b" + by};
  return {unit + " a" + by, unit + " b" + by};
}

}  // namespace cumap
