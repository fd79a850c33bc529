// report.html: the page template (report_page.html, generated into
// report_page.hpp by CMake) with the run's data in it as JSON.
//
// The data (report_data):
//   device, run          names and the command line, for the page's title (the summary's)
//   interrupted, iters, lines_per_class
//   units                ids, labels, side (-1: none) and group (index into
//                        groups, -1: none) of each unit, in display order
//   colormap             the run's colormap as 256 RGB triples in hex, as the PNGs draw it
//   placements[]         name, complete, ordered, and per home class the
//                        one-way value, p05, p95 and line spread matrices
//                        (PlacementResult's, computed with the maps);
//                        "average": the class-averaged value and line spread
//   structure[]          the structure table, same-line pairs with the classes pooled (the summary's)
//   across_gpus          a map across GPUs: the GPU x GPU table, the
//                        cross-GPU structure and their sentences, as
//                        summary.md's "Across GPUs" (summary_formats.hpp);
//                        empty lists on one GPU
//   views                the summary's slowest and fastest pairs, units that
//                        stand out and side x side and group x group means
//                        (summary_formats.hpp); null without them
//   checks[], warnings[] summary.md's: each map's self-check and the run's
//                        warnings, in words (run_checks.cpp)
//   homes[]              per device: the unit x line table as heatmap-homes.png
//                        draws it (rows in display order, lines by class)
// A 132-SM run's matrices, base64 of uint16 and only above the diagonal,
// make a page of about 0.7 MB (as JSON numbers they would take 3x that).
#include "report/report_html.hpp"
#include "core/map_result.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <future>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/units.hpp"
#include "render/render.hpp"
#include "report/heatmap_png.hpp"
#include "report/report_page.hpp"  // kReportPage, generated from report_page.html
#include "report/summary_formats.hpp"

namespace cumap {
namespace {

using nlohmann::json;

// Values (NaN: not measured; `timed_out[i]` set: timed out) as uint16 codes
// of 0.01 ns above the smallest value, or of 0.1 ns, 1 ns... where finer
// steps would not reach the largest (a GPU map's range needs 0.1 ns).
json encode_values(const std::vector<double>& values, const std::vector<char>& timed_out) {
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values)
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  lo = std::isfinite(lo) ? std::floor(lo) : 0.0;
  double step = 0.01;
  constexpr double kLargestCode = kReportTimedOut - 1;
  while (std::isfinite(hi) && (hi - lo) / step > kLargestCode) step *= 10;
  std::vector<std::uint8_t> bytes;
  bytes.reserve(values.size() * 2);
  for (std::size_t i = 0; i < values.size(); ++i) {
    int code = kReportNotMeasured;
    if (!timed_out.empty() && timed_out[i]) code = kReportTimedOut;
    else if (std::isfinite(values[i])) code = static_cast<int>(std::lround(std::min((values[i] - lo) / step, kLargestCode)));
    bytes.push_back(static_cast<std::uint8_t>(code & 0xff));
    bytes.push_back(static_cast<std::uint8_t>(code >> 8));
  }
  return {{"lo", lo},
          {"step", step},
          {"b64", base64(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()))}};
}

// The cells the page keeps of an n x n matrix: above the diagonal where the
// map is unordered (mirrored), every cell where it is ordered.
template <class T>
std::vector<T> kept_cells(const std::vector<T>& full, std::size_t n, bool ordered) {
  if (ordered) return full;
  std::vector<T> kept;
  kept.reserve(n * (n - 1) / 2);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = r + 1; c < n; ++c) kept.push_back(full[r * n + c]);
  return kept;
}

json placement_data(const PlacementResult& p, const std::vector<int>& order) {
  const std::size_t n = order.size();
  const bool ordered = p.headline.ordered;
  const auto encode = [&](const ValueMatrix& m, const std::vector<char>& timed_out) {
    return encode_values(kept_cells(m.reordered(order).values, n, ordered), kept_cells(timed_out, n, ordered));
  };
  const auto encode_plain = [&](const ValueMatrix& m) {
    return encode_values(kept_cells(m.reordered(order).values, n, ordered), {});
  };
  json classes = json::array();
  std::vector<char> any_timed_out(n * n, 0);
  for (std::size_t c = 0; c < p.per_class.size(); ++c) {
    // A cell with a timed-out line shows as timed out rather than as missing.
    std::vector<char> timed_out(n * n, 0);
    const std::vector<double> lines = p.per_class_timed_out_lines[c].reordered(order).values;
    for (std::size_t i = 0; i < n * n; ++i) {
      timed_out[i] = lines[i] > 0;
      any_timed_out[i] |= timed_out[i];
    }
    classes.push_back({{"home_class", p.per_class[c].spec.home_class},
                       {"value", encode(p.per_class_ns[c], timed_out)},
                       {"p05", encode_plain(p.per_class_p05_ns[c])},
                       {"p95", encode_plain(p.per_class_p95_ns[c])},
                       {"spread", encode_plain(p.per_class_line_spread_ns[c])}});
  }
  return {{"name", to_string(p.placement)},
          {"complete", p.complete},
          {"ordered", ordered},
          {"classes", classes},
          {"average", {{"value", encode(p.headline_ns, any_timed_out)}, {"spread", encode_plain(p.line_spread_ns)}}}};
}

json units_data(const MapResult& r) {
  const bool across = ids_span_devices(r.display_order);
  const UnitSides sides = unit_sides(r.homes);
  std::unordered_map<int, int> side_of, group_of;
  for (std::size_t i = 0; i < sides.units.size(); ++i) side_of[sides.units[i]] = sides.sides[i];
  json groups = json::array();
  for (const UnitGroup& g : r.display_groups.groups) {
    for (int u : g.units) group_of.emplace(u, static_cast<int>(groups.size()));
    groups.push_back(g.name);
  }
  json labels = json::array(), side = json::array(), group = json::array();
  for (int u : r.display_order) {
    labels.push_back(format_unit_id(u, across));
    side.push_back(side_of.contains(u) ? side_of[u] : -1);
    group.push_back(group_of.contains(u) ? group_of[u] : -1);
  }
  return {{"ids", r.display_order}, {"labels", labels}, {"side", side}, {"group", group}, {"groups", groups}};
}

json axis_groups_data(const std::vector<AxisGroup>& groups) {
  json j = json::array();
  for (const AxisGroup& g : groups) j.push_back({{"name", g.name}, {"begin", g.begin}, {"end", g.end}});
  return j;
}

json homes_data(const MapResult& r) {
  json all = json::array();
  for (const HomesResult& h : r.homes) {
    const HeatmapTable t = homes_heatmap_table(h, r.display_order, r.display_groups, r.device.unit_name);
    // The table's rows are the device's units in display order; their sides
    // draw the thick separators.
    std::unordered_map<int, int> side_of;
    for (std::size_t u = 0; u < h.unit_ids.size() && u < h.classes.unit_side.size(); ++u)
      side_of[h.unit_ids[u]] = h.classes.unit_side[u];
    json row_side = json::array();
    for (int u : r.display_order)
      if (side_of.contains(u)) row_side.push_back(side_of[u]);
    all.push_back({{"device", h.device},
                   {"class_count", h.classes.class_count},
                   {"rows", t.rows.labels},
                   {"row_side", row_side},
                   {"row_groups", axis_groups_data(t.rows.groups)},
                   {"lines", t.columns.labels},
                   {"line_groups", axis_groups_data(t.columns.groups)},
                   {"value", encode_values(t.values, {})}});
  }
  return all;
}

std::string colormap_hex(const std::string& name) {
  std::string hex;
  for (int i = 0; i < 256; ++i) {
    const Rgb c = colormap(name, i / 255.0);
    static constexpr char kDigits[] = "0123456789abcdef";
    for (std::uint8_t v : {c.r, c.g, c.b}) hex += {kDigits[v >> 4], kDigits[v & 15]};
  }
  return hex;
}

// The data the page draws (the layout above).
json report_data(const MapResult& r, const RunSummary& summary) {
  std::vector<std::future<json>> each;
  for (const PlacementResult& p : r.placements)
    each.push_back(std::async(std::launch::async, [&p, &r] { return placement_data(p, r.display_order); }));
  json placements = json::array();
  for (std::future<json>& p : each) placements.push_back(p.get());
  json structure = json::array();
  for (const StructureRow& s : summary.same_line_pooled)
    structure.push_back({{"where", structure_words(s)}, {"median_ns", s.median_ns},
                         {"p05_ns", s.p05_ns}, {"p95_ns", s.p95_ns}, {"cells", s.cells}});
  json checks = json::array();
  for (const RunSummary::Map& m : summary.maps) checks.push_back({{"map", summary.map_name(m)}, {"words", check_words(m)}});
  const RunHeader& run = summary.run;
  return {
      {"format", 1},
      {"device",
       {{"name", run.device_name}, {"backend", run.backend}, {"unit_name", run.unit_name},
        {"driver_version", run.driver_version}, {"runtime_version", run.runtime_version}}},
      {"run",
       {{"tool_version", run.tool_version}, {"timestamp_utc", run.timestamp_utc}, {"host", run.host},
        {"command_line", run.command_line}}},
      {"interrupted", r.interrupted},
      {"iters", r.settings.iters},
      {"lines_per_class", r.settings.lines_per_class},
      {"units", units_data(r)},
      {"colormap", colormap_hex(r.settings.colormap)},
      {"placements", placements},
      {"structure", structure},
      // The summary's, as `cumap summary --format json` has it: the page says what summary.md says.
      {"across_gpus", across_gpus_fields_json(summary)},
      // Zoomed out: the summary's views, as summary.md's sections say them.
      {"views", views_fields_json(summary)},
      {"homes", homes_data(r)},
      // summary.md's checks and warnings, in its words.
      {"checks", checks},
      {"warnings", summary.warnings},
  };
}

}  // namespace

std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto byte = [&bytes](std::size_t i) -> std::uint32_t {
    return i < bytes.size() ? static_cast<unsigned char>(bytes[i]) : 0;
  };
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t n = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    out += kDigits[(n >> 18) & 63];
    out += kDigits[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[n & 63] : '=';
  }
  return out;
}


std::string report_html(const MapResult& r, const RunSummary& summary) {
  // In a <script> element only "</script" (and "<!--") can end or upset the
  // data; '<' appears in JSON only inside strings, where \u003c means the same.
  std::string data;
  for (char ch : report_data(r, summary).dump(-1, ' ', false, json::error_handler_t::replace))
    if (ch == '<') data += "\\u003c";
    else data += ch;
  constexpr std::string_view kPlaceholder = "{{CUMAP_DATA}}";
  const std::string_view page = kReportPage;
  const std::size_t at = page.find(kPlaceholder);
  std::string html;
  html.reserve(page.size() + data.size());
  html.append(page.substr(0, at)).append(data).append(page.substr(at + kPlaceholder.size()));
  return html;
}

}  // namespace cumap
