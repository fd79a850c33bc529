#include "report/sync_png.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/sync_cases.hpp"
#include "report/sync_csv.hpp"

namespace cumap {
namespace {

// One colour per implementation (operation), the same in every run; across
// GPUs another for its counter on the second GPU (and one more for any
// further GPU), the line style staying the home's.
int color_of(const std::string& what, const std::string& counter_gpu) {
  static const std::map<std::string, int> colors{{"counter", 0}, {"flag", 1}, {"two-level", 2}, {"platform", 3},
                                                 {"cas", 0},     {"add", 1}};
  static const std::map<std::string, int> on_second_gpu{{"counter", 5}, {"flag", 4}, {"cas", 5}, {"add", 4}};
  if (counter_gpu.starts_with('g') && counter_gpu != "g0") {
    const auto it = on_second_gpu.find(what);
    return counter_gpu == "g1" && it != on_second_gpu.end() ? it->second : 6;
  }
  const auto it = colors.find(what);
  return it == colors.end() ? 4 : it->second;
}

// One line style per counter home: near solid, far dashed, the platform's own dotted.
int dash_of(const std::string& home) { return home == "far" ? 1 : home == "own" ? 2 : 0; }

std::string why_missing(const SyncCaseResult& c) {
  return c.unsupported ? "not supported here (" + c.why + ")" : c.timed_out ? "timed out" : "no value";
}

// Each line (construction and home) of which no case has a point, for one
// reason, gets one note "at any set and k"; the missing cases of other lines
// come back, in order.
std::vector<const SyncCaseResult*> note_once_where_every_point_is_missing(
    const std::vector<SyncCaseResult>& cases, const std::vector<const SyncCaseResult*>& missing,
    std::vector<std::string>& notes) {
  const auto line_of = [](const SyncCaseResult& c) { return sync_construction(c) + ", " + c.label.counter_home; };
  std::map<std::string, std::set<std::string>> reasons;  // line -> why its points are missing ("" once measured)
  std::vector<std::string> lines;                         // in order of first appearance
  for (const SyncCaseResult& c : cases) {
    const std::string line = line_of(c);
    if (!reasons.contains(line)) lines.push_back(line);
    reasons[line].insert(c.measured() ? std::string() : why_missing(c));
  }
  std::set<std::string> noted;
  for (const std::string& line : lines)
    if (const std::set<std::string>& why = reasons[line]; why.size() == 1 && !why.begin()->empty()) {
      notes.push_back(fmt::format("No point for {} at any set and k: {}", line, *why.begin()));
      noted.insert(line);
    }
  std::vector<const SyncCaseResult*> rest;
  for (const SyncCaseResult* c : missing)
    if (!noted.contains(line_of(*c))) rest.push_back(c);
  return rest;
}

}  // namespace

std::vector<PlotPanel> sync_plot_panels(const SyncResult& r) {
  std::vector<PlotPanel> panels;
  std::map<std::string, std::size_t> panel_of;                           // set -> panel
  std::map<std::pair<std::string, std::string>, std::size_t> series_of;  // (set, label) -> series
  std::map<std::string, int> most_k;
  // In the order the cases ran: sets as measured, k ascending within each series.
  for (const SyncCaseResult& c : r.cases) {
    const std::string& set = c.label.set;
    if (!panel_of.contains(set)) {
      panel_of[set] = panels.size();
      panels.emplace_back();
    }
    PlotPanel& p = panels[panel_of[set]];
    most_k[set] = std::max(most_k[set], c.label.k);
    p.title = fmt::format("{} (up to {} {}s)", set, most_k[set], r.discovery.device.unit_name);
    const std::string label = sync_construction(c) + ", " + c.label.counter_home;
    if (!series_of.contains({set, label})) {
      series_of[{set, label}] = p.series.size();
      PlotSeries s;
      s.label = label;
      s.color = color_of(c.what, c.label.counter_gpu);
      s.dash = dash_of(c.label.counter_home);
      p.series.push_back(std::move(s));
    }
    PlotSeries& s = p.series[series_of[{set, label}]];
    s.x.push_back(c.label.k);
    s.y.push_back(c.measured() ? c.headline_ns() : kNaN);
    s.y_low.push_back(c.measured() ? c.ns.p05 : kNaN);
    s.y_high.push_back(c.measured() ? c.ns.p95 : kNaN);
  }
  return panels;
}

LinePlotStyle sync_plot_style(const SyncResult& r) {
  LinePlotStyle style;
  const DeviceInfo& d = r.discovery.device;
  style.title = r.settings.contention
                    ? fmt::format("{} - contention: ns per dependent atomic on one line (median, whiskers p05-p95)",
                                  d.name)
                    : fmt::format("{} - barrier: ns per barrier, back to back (mean over {} launch(es), each on "
                                  "counter lines of its own; whiskers: p05-p95 of single episodes)",
                                  d.name, r.settings.launches);
  style.x_title = fmt::format("participants k ({}s)", d.unit_name);
  style.y_title = r.settings.contention ? "ns per operation" : "ns per barrier";
  int low = 0, high = 0;
  for (const SyncCaseResult& c : r.cases) {
    low = low == 0 ? c.label.k : std::min(low, c.label.k);
    high = std::max(high, c.label.k);
  }
  style.log_x = low > 0 && high >= 4 * low;
  style.panels_per_row = 2;
  // A missing point says why: the plot alone must not read as "not tried".
  constexpr std::size_t kMostNotes = 6;
  std::vector<const SyncCaseResult*> missing;
  for (const SyncCaseResult& c : r.cases)
    if (!c.measured()) missing.push_back(&c);
  // Across GPUs grid.sync() is missing at every set and k for one reason:
  // one note says so, rather than a note per point crowding the others out.
  if (sync_spans_gpus(r)) missing = note_once_where_every_point_is_missing(r.cases, missing, style.notes);
  // One note per line and reason, naming its points: the same reason for six
  // values of k is one footnote, not six.
  std::vector<std::pair<std::string, std::vector<std::string>>> grouped;  // "line: why" -> its points
  for (const SyncCaseResult* c : missing) {
    const std::string key = fmt::format("{}, {}: {}", sync_construction(*c), c->label.counter_home, why_missing(*c));
    auto it = std::find_if(grouped.begin(), grouped.end(), [&](const auto& g) { return g.first == key; });
    if (it == grouped.end()) it = grouped.insert(grouped.end(), {key, {}});
    it->second.push_back(fmt::format("{} k={}", c->label.set, c->label.k));
  }
  std::size_t shown = 0;
  for (std::size_t i = 0; i < grouped.size() && i < kMostNotes; ++i) {
    const auto& [key, points] = grouped[i];
    const std::size_t colon = key.find(": ");
    style.notes.push_back(fmt::format("No point for {} at {}: {}", key.substr(0, colon), fmt::join(points, ", "),
                                      key.substr(colon + 2)));
    shown += points.size();
  }
  if (missing.size() > shown)
    style.notes.push_back(
        fmt::format("... and {} more without a point: see {}", missing.size() - shown, sync_csv_name(r)));
  return style;
}

}  // namespace cumap
