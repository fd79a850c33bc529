// --order read (order_file.hpp): a run's meta.json, or a topology JSON.
#include "report/order_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "core/display_layout.hpp"
#include "core/printable.hpp"
#include "core/topology.hpp"
#include "cumap/error.hpp"
#include "report/read/checked_file.hpp"
#include "report/read/json_fields.hpp"
#include "report/summary_json.hpp"

namespace cumap {

namespace fs = std::filesystem;

namespace {

std::string shown(const fs::path& path) { return printable_excerpt(path.string(), 120); }

// A record's fixed colour range: [min, max] with min < max, else none.
std::optional<std::pair<double, double>> scale_of(const nlohmann::json& h) {
  if (!h.contains("scale") || !h["scale"].is_array() || h["scale"].size() != 2) return std::nullopt;
  const nlohmann::json& s = h["scale"];
  if (!s[0].is_number() || !s[1].is_number()) return std::nullopt;
  const double lo = s[0].get<double>(), hi = s[1].get<double>();
  if (!(lo < hi) || !std::isfinite(lo) || !std::isfinite(hi)) return std::nullopt;
  return std::pair{lo, hi};
}

std::optional<PictureRecord> picture_of(const nlohmann::json& meta, const std::string& csv_name) {
  if (!meta.contains("heatmaps") || !meta["heatmaps"].is_array()) return std::nullopt;
  for (const nlohmann::json& h : meta["heatmaps"])
    if (json_fields::text(h, "matrix") == csv_name)
      return PictureRecord{csv_name,
                           json_fields::text(h, "heatmap"),
                           json_fields::text(h, "title"),
                           json_fields::text(h, "panel_title"),
                           json_fields::text(h, "value_label"),
                           json_fields::text(h, "row_title"),
                           json_fields::text(h, "column_title"),
                           json_fields::text(h, "colormap"),
                           scale_of(h)};
  return std::nullopt;
}

// Units of `list` (a JSON array of unit ids); UsageError naming `what` otherwise.
std::vector<int> unit_list(const nlohmann::json& list, const std::string& what) {
  if (!list.is_array()) throw UsageError(what + " must be an array of unit ids");
  std::vector<int> units;
  for (const nlohmann::json& u : list) {
    if (!u.is_number_integer() || u.get<long long>() < 0 || u.get<long long>() > std::numeric_limits<int>::max())
      throw UsageError(what + " has an entry that is not a unit id: " + printable_excerpt(u.dump()));
    units.push_back(u.get<int>());
  }
  return units;
}

// Each unit's side from a list of sides [{"name": "side0", "units": [...]}]
// (homes' "sides" in meta.json, "sides" of `cumap topology --json`): the
// number in the name ("g1 side0" across GPUs: 0), else the side's place.
struct Sides {
  std::vector<int> units;
  std::vector<int> side;
  int count = 0;
};
Sides sides_of(const nlohmann::json& list) {
  Sides sides;
  if (!list.is_array()) return sides;
  for (std::size_t s = 0; s < list.size(); ++s) {
    const std::string name = json_fields::text(list[s], "name");
    int number = static_cast<int>(s);
    if (const std::size_t at = name.rfind("side"); at != std::string::npos) {
      const char* begin = name.data() + at + 4;
      const char* end = name.data() + name.size();
      int parsed = 0;
      // cumap names the sides of a list side0, side1, ...: a number past the
      // list is not one of them (and side2147483647 would overflow the count).
      if (const auto [ptr, ec] = std::from_chars(begin, end, parsed);
          ec == std::errc() && ptr == end && parsed >= 0 && static_cast<std::size_t>(parsed) < list.size())
        number = parsed;
    }
    if (!list[s].contains("units")) continue;
    for (int u : unit_list(list[s]["units"], "a side's \"units\"")) {
      sides.units.push_back(u);
      sides.side.push_back(number);
    }
    sides.count = std::max(sides.count, number + 1);
  }
  return sides;
}

// The side of each of `units` (0 for a unit no side names).
std::vector<int> unit_side_for(const std::vector<int>& units, const Sides& sides) {
  std::unordered_map<int, int> side_of;
  for (std::size_t i = 0; i < sides.units.size(); ++i) side_of.emplace(sides.units[i], sides.side[i]);
  std::vector<int> side;
  for (int u : units) side.push_back(side_of.contains(u) ? side_of.at(u) : 0);
  return side;
}

// The order file's units must all be in the matrix: an order for another map is a mistake.
void check_units_known(const std::string& file, const std::vector<int>& named, const std::vector<int>& units,
                       const std::string& where) {
  const std::unordered_set<int> present(units.begin(), units.end());
  for (int unit : named)
    if (!present.contains(unit))
      throw UsageError("order file " + file + " names unit " + std::to_string(unit) + " (" + where +
                       "), which is not in the matrix");
}

void check_topology_units(const std::string& file, const Topology& topology, const std::vector<int>& units) {
  for (const auto& group : topology.groups)
    check_units_known(file, group.units, units, "group '" + printable_excerpt(group.name) + "'");
}

// Groups worth drawing: as a run draws them, two or more.
std::optional<Topology> drawn_groups(const Topology& groups, const std::vector<int>& units) {
  Topology restricted = restrict_topology(groups, units);
  if (restricted.groups.size() < 2) return std::nullopt;
  return restricted;
}

Topology topology_in(const std::string& file, const nlohmann::json& j) {
  try {
    return topology_from_json(j);
  } catch (const UsageError& e) {
    throw UsageError("order file " + file + ": " + e.what());
  }
}

// A run's meta.json: its display order, and the groups it drew.
DisplaySpec run_display(const std::string& file, const nlohmann::json& meta, const std::vector<int>& units,
                        const std::string& csv_name) {
  DisplaySpec spec;
  const std::vector<int> display = unit_list(meta["display_order"], "order file " + file + ": \"display_order\"");
  check_units_known(file, display, units, "in \"display_order\"");
  spec.order = topology_order({"file", {{"", display}}, {}}, units);  // units it does not name after it, by id
  if (meta.contains("device")) spec.unit_name = json_fields::text(meta["device"], "unit_name");
  const nlohmann::json options = meta.value("options", nlohmann::json::object());
  spec.ordered = json_fields::boolean(options, "ordered", false);
  const bool by_index = json_fields::text(options, "order") == "index";
  const nlohmann::json homes = meta.value("homes", nlohmann::json::object());
  const Sides sides = homes.is_object() ? sides_of(homes.value("sides", nlohmann::json())) : Sides{};

  Topology groups;
  if (meta.contains("display_groups")) {
    groups = topology_in(file, meta["display_groups"]);
  } else if (!by_index && meta.contains("topology")) {
    // An older meta.json: the groups the run drew, made again the way it made them.
    std::vector<int> sorted = display;
    std::sort(sorted.begin(), sorted.end());
    groups = side_group_layout(topology_in(file, meta["topology"]), sorted, unit_side_for(sorted, sides),
                               UnitOrder::Topology)
                 .groups;
  }
  check_topology_units(file, groups, units);
  spec.groups = drawn_groups(groups, spec.order);
  if (spec.groups) {
    const bool has_topology = meta.contains("topology") && meta["topology"].is_object() &&
                              meta["topology"].contains("groups") && !meta["topology"]["groups"].empty();
    spec.order_words = sides.count > 1 ? (has_topology ? "side, then group" : "side") : "group";
  }
  spec.picture = picture_of(meta, csv_name);
  spec.run = run_header_from_json(meta);
  return spec;
}

// A topology JSON: its groups, after its sides where it has two or more.
DisplaySpec topology_display(const std::string& file, const nlohmann::json& j, const std::vector<int>& units) {
  DisplaySpec spec;
  const Topology topology = topology_in(file, j);
  check_topology_units(file, topology, units);
  const Sides sides = sides_of(j.value("sides", nlohmann::json()));
  check_units_known(file, sides.units, units, "in \"sides\"");
  if (sides.count > 1) {
    std::vector<int> sorted = units;
    std::sort(sorted.begin(), sorted.end());
    const DisplayLayout layout = side_group_layout(topology, sorted, unit_side_for(sorted, sides), UnitOrder::Topology);
    spec.order = layout.order;
    spec.groups = drawn_groups(layout.groups, units);
    spec.order_words = topology.groups.empty() ? "side" : "side, then group";
  } else {
    spec.order = topology_order(topology, units);
    spec.groups = drawn_groups(topology, units);
    if (spec.groups) spec.order_words = "group";
  }
  return spec;
}

}  // namespace

DisplaySpec read_order(const fs::path& path, const std::vector<int>& units, const std::string& csv_name) {
  std::error_code ec;
  fs::path file = path;
  // A run's output directory: its meta.json.
  if (fs::is_directory(path, ec)) {
    file = path / "meta.json";
    if (!fs::exists(fs::symlink_status(file, ec)))
      throw UsageError("--order " + shown(path) +
                       " is a directory without a meta.json (give a run's output directory, its meta.json, or a "
                       "topology JSON)");
  }
  const std::string name = shown(file);
  nlohmann::json j;
  try {
    j = read_checked_json(file, kOrderFileRead);
  } catch (const FileReadError& e) {
    throw UsageError(std::string("order file ") + e.what());
  }
  if (j.is_object() && j.contains("display_order")) return run_display(name, j, units, csv_name);
  if (j.is_object() && !j.contains("groups"))
    throw UsageError("order file " + name +
                     " is neither a run's meta.json (no \"display_order\") nor a topology JSON (no \"groups\")");
  return topology_display(name, j, units);
}

}  // namespace cumap
