// The summaries' meta.json keys, written and read back (summary_json.hpp):
// each writer beside its reader, so that a key changes in both at once.
#include "report/summary_json.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "core/topology.hpp"
#include "cumap/error.hpp"
#include "report/json_number.hpp"
#include "report/read/json_fields.hpp"

namespace cumap {
namespace {

using Json = nlohmann::json;
using namespace json_fields;  // the checked readers of cumap's own JSON

// "g1" -> 1; anything else (such as "both") -> nothing.
std::optional<int> gpu_named(const std::string& name) {
  int gpu = 0;
  if (name.size() < 2 || name.front() != 'g') return std::nullopt;
  const auto [end, error] = std::from_chars(name.data() + 1, name.data() + name.size(), gpu);
  return error == std::errc() && end == name.data() + name.size() ? std::optional<int>(gpu) : std::nullopt;
}

// ---- A map's rows.

// A serial self-check (meta.json "serial_checks", RunSummary::Map::checks).
Json check_json(const SelfCheck& c) {
  return {{"pairs_per_round", c.pairs_per_round},
          {"checked", c.pilot ? "pilot" : "map"},
          {"passed", c.passed},
          {"concurrent_vs_serial", agreement_json(c.agreement)},
          {"serial_vs_serial", agreement_json(c.serial_repeat)},
          {"bias", number_or_null(c.bias)},
          {"bias_standard_error", number_or_null(c.bias_uncertainty)},
          {"sampling_noise", number_or_null(c.sampling_noise)},
          {"earlier_serial_vs_serial_median_rel_diff", number_or_null(c.earlier_serial_repeat)}};
}

Agreement agreement_of(const Json& j) {
  Agreement a;
  a.n = whole<std::size_t>(j, "n", 0);
  a.pearson_r = number_or_nan(j, "pearson_r");
  a.median_rel_diff = number_or_nan(j, "median_rel_diff");
  return a;
}

SelfCheck check_of(const Json& j) {
  SelfCheck c;
  c.pairs_per_round = whole<int>(j, "pairs_per_round", 1);
  c.pilot = text(j, "checked") == "pilot";
  c.passed = boolean(j, "passed", true);
  c.agreement = agreement_of(member(j, "concurrent_vs_serial"));
  c.serial_repeat = agreement_of(member(j, "serial_vs_serial"));
  c.bias = number_or_nan(j, "bias");
  c.bias_uncertainty = number_or_nan(j, "bias_standard_error");
  c.sampling_noise = number_or_nan(j, "sampling_noise");
  c.earlier_serial_repeat = number_or_nan(j, "earlier_serial_vs_serial_median_rel_diff");
  return c;
}

StructureRow structure_of(const Json& row) {
  return {text(row, "relation"),           whole<int>(row, "near_units", 0), number_or_nan(row, "median_ns"),
          number_or_nan(row, "p05_ns"),     number_or_nan(row, "p95_ns"),     whole<std::size_t>(row, "cells", 0)};
}

RunSummary::GpuPair gpu_pair_of(const Json& row) {
  RunSummary::GpuPair p;
  p.row.gpu_a = whole<int>(row, "gpu_a", 0);
  p.row.gpu_b = whole<int>(row, "gpu_b", 0);
  p.row.flags_on = text(row, "flags_on");
  p.row.cells = whole<std::size_t>(row, "cells", 0);
  p.row.oneway_ns = {number_or_nan(row, "oneway_ns_median"), number_or_nan(row, "p05_ns"),
                     number_or_nan(row, "p95_ns"),           number_or_nan(row, "min_ns"),
                     number_or_nan(row, "max_ns"),           whole<int>(row, "cells", 0)};
  p.link = text(row, "link");
  return p;
}


std::optional<CrossGpuStructureRow> cross_gpu_of(const Json& row) {
  const std::optional<int> flags_on = gpu_named(text(row, "flags_on"));
  if (!flags_on) return std::nullopt;
  return CrossGpuStructureRow{whole<int>(row, "gpu_a", 0),     whole<int>(row, "gpu_b", 0),
                              *flags_on,                       whole<int>(row, "home_class", 0),
                              whole<int>(row, "side_a", 0),    whole<int>(row, "side_b", 0),
                              number_or_nan(row, "median_ns"), number_or_nan(row, "p05_ns"),
                              number_or_nan(row, "p95_ns"),    whole<std::size_t>(row, "cells", 0)};
}

Json map_json(const RunSummary::Map& m) {
  Json late = Json::array();
  for (const auto& [a, b] : m.timed_out_pairs) late.push_back({a, b});
  Json j = {{"placement", m.placement},
            {"complete", m.complete},
            {"pair_count", m.pairs},
            {"completed_pairs", m.completed_pairs},
            {"pairs_per_round", m.pairs_per_round},
            {"timed_out_pairs", late},
            {"oneway_ns",
             {{"median", number_or_null(m.median_ns)},
              {"min", number_or_null(m.min_ns)},
              {"max", number_or_null(m.max_ns)},
              {"p05", number_or_null(m.p05_ns)},
              {"p95", number_or_null(m.p95_ns)}}}};
  if (!m.cluster_barrier.empty()) {
    Json barrier = Json::array();
    for (const RunSummary::ClusterBarrier& row : m.cluster_barrier)
      barrier.push_back({{"cluster_size", row.cluster_size},
                         {"clusters", row.clusters},
                         {"median_cycles", row.median_cycles},
                         {"median_ns", row.median_ns}});
    j["stats"]["extra"]["cluster_barrier"] = barrier;
  }
  Json checks = Json::array();
  for (const SelfCheck& c : m.checks) checks.push_back(check_json(c));
  j["serial_checks"] = checks;
  return j;
}

RunSummary::Map map_of(const Json& m) {
  RunSummary::Map map;
  map.placement = text(m, "placement");
  map.pairs = whole<std::size_t>(m, "pair_count", 0);
  map.pairs_per_round = whole<int>(m, "pairs_per_round", 1);
  const Json& late = member(m, "timed_out_pairs");
  if (late.is_array())
    for (const Json& pair : late)
      if (pair.is_array() && pair.size() == 2 && json_fields::exact<int>(pair[0]) && json_fields::exact<int>(pair[1]))
        map.timed_out_pairs.emplace_back(*json_fields::exact<int>(pair[0]), *json_fields::exact<int>(pair[1]));
  const Json& ns = member(m, "oneway_ns");
  map.median_ns = number(ns, "median");
  map.p05_ns = number(ns, "p05");
  map.p95_ns = number(ns, "p95");
  map.min_ns = number(ns, "min");
  map.max_ns = number(ns, "max");
  // meta.json of cumap 0.1.0 and before has no completed_pairs: a map
  // without a median had none, else every pair but the timed-out ones.
  const std::size_t late_pairs = map.timed_out_pairs.size();
  map.completed_pairs = member(m, "completed_pairs").is_number()
                            ? whole<std::size_t>(m, "completed_pairs", 0)
                            : (map.median_ns ? map.pairs - std::min(late_pairs, map.pairs) : 0);
  map.complete = boolean(m, "complete", true);
  if (member(m, "serial_checks").is_array())
    for (const Json& c : m["serial_checks"]) map.checks.push_back(check_of(c));
  const Json& barrier = member(member(member(m, "stats"), "extra"), "cluster_barrier");
  if (barrier.is_array())
    for (const Json& row : barrier)
      map.cluster_barrier.push_back({whole<int>(row, "cluster_size", 0), whole<long long>(row, "clusters", 0),
                                     number(row, "median_ns").value_or(0.0),
                                     number(row, "median_cycles").value_or(0.0)});
  return map;
}

// ---- A map seen from further out (core/map_views.hpp).

Json optional_numbers(const std::vector<std::optional<double>>& values) {
  Json out = Json::array();
  for (const std::optional<double>& v : values) out.push_back(v ? Json(*v) : Json());
  return out;
}

std::vector<std::optional<double>> optional_numbers_of(const Json& list) {
  std::vector<std::optional<double>> out;
  if (list.is_array())
    for (const Json& v : list) out.push_back(v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt);
  return out;
}

RunSummary::PairValue pair_value_of(const Json& j) {
  return {whole<int>(j, "a", 0),  whole<int>(j, "b", 0),  number(j, "ns").value_or(0.0),
          optional_numbers_of(member(j, "per_class_ns")), text(j, "group_a"), text(j, "group_b")};
}

Json views_json(const RunSummary& s) {
  ViewsLists lists = views_lists(s, [](int unit) { return Json(unit); }, Json());
  return {{"extreme_pairs", std::move(lists.extreme_pairs)},
          {"unit_terms",
           {{"placement", s.unit_terms.placement}, {"units", s.unit_terms.units}, {"term_ns", s.unit_terms.term_ns}}},
          {"standing_out", {{"threshold_ns", s.stand_out_ns}, {"units", std::move(lists.standing_out)}}},
          {"block_means", std::move(lists.block_means)}};
}

void read_views(RunSummary& s, const Json& views) {
  if (!views.is_object()) return;
  s.has_views = true;
  if (member(views, "extreme_pairs").is_array())
    for (const Json& e : views["extreme_pairs"]) {
      RunSummary::Extremes x;
      x.placement = text(e, "placement");
      x.classes = ints(member(e, "classes"));
      if (member(e, "slowest").is_array())
        for (const Json& p : e["slowest"]) x.slowest.push_back(pair_value_of(p));
      if (member(e, "fastest").is_array())
        for (const Json& p : e["fastest"]) x.fastest.push_back(pair_value_of(p));
      s.extremes.push_back(std::move(x));
    }
  const Json& terms = member(views, "unit_terms");
  s.unit_terms.placement = text(terms, "placement");
  s.unit_terms.units = ints(member(terms, "units"));
  if (member(terms, "term_ns").is_array())
    for (const Json& v : terms["term_ns"]) s.unit_terms.term_ns.push_back(v.is_number() ? v.get<double>() : kNaN);
  const Json& standing = member(views, "standing_out");
  s.stand_out_ns = number(standing, "threshold_ns").value_or(0.0);
  if (member(standing, "units").is_array())
    for (const Json& u : standing["units"])
      s.standing_out.push_back({whole<int>(u, "unit", 0), text(u, "group"), number(u, "term_ns").value_or(0.0),
                                number(u, "from_median_ns").value_or(0.0)});
  if (member(views, "block_means").is_array())
    for (const Json& b : views["block_means"]) {
      RunSummary::BlockMeans m;
      m.placement = text(b, "placement");
      if (member(b, "home_class").is_number_integer()) m.home_class = b["home_class"].get<int>();
      m.by = text(b, "by");
      m.blocks = texts(member(b, "blocks"));
      m.mean_ns = optional_numbers_of(member(b, "mean_ns"));
      if (member(b, "cells").is_array())
        for (const Json& c : b["cells"]) m.cells.push_back(c.is_number_unsigned() ? c.get<std::size_t>() : 0);
      s.blocks.push_back(std::move(m));
    }
}

// ---- A barrier's or contention's cases.

Json summary_json(const Summary& s) {
  return {{"median", number_or_null(s.median)}, {"p05", number_or_null(s.p05)}, {"p95", number_or_null(s.p95)},
          {"min", number_or_null(s.min)},       {"max", number_or_null(s.max)}, {"count", s.count}};
}

Summary summary_of(const Json& j) {
  return {number_or_nan(j, "median"), number_or_nan(j, "p05"), number_or_nan(j, "p95"),
          number_or_nan(j, "min"),    number_or_nan(j, "max"), whole<int>(j, "count", 0)};
}

Json case_json(const SyncCaseResult& c) {
  return {{"what", c.what},
          {"set", c.label.set},
          {"k", c.label.k},
          {"counter_home", c.label.counter_home},
          {"counter_class", c.label.counter_class},
          {"counter_gpu", c.label.counter_gpu},
          {"groups", c.label.groups},
          {"grouped_by", c.label.grouped_by},
          {"participants", c.participants},
          {"counter_offsets", c.counter_offsets},
          {"launches", c.launches},
          {"ns", summary_json(c.ns)},
          {"cycles", summary_json(c.cycles)},
          {"per_barrier_ns", number_or_null(c.per_barrier_ns)},
          {"per_barrier_cycles", number_or_null(c.per_barrier_cycles)},
          {"values", c.values},
          {"ops_per_us", number_or_null(c.ops_per_us)},
          {"timed_out", c.timed_out},
          {"unsupported", c.unsupported},
          {"why", c.why}};
}

SyncCaseResult case_of(const Json& j) {
  SyncCaseResult c;
  c.what = text(j, "what");
  c.label.set = text(j, "set");
  c.label.k = whole<int>(j, "k", 0);
  c.label.counter_home = text(j, "counter_home");
  c.label.counter_class = whole<int>(j, "counter_class", -1);
  c.label.counter_gpu = text(j, "counter_gpu");
  c.label.groups = whole<int>(j, "groups", 0);
  c.label.grouped_by = text(j, "grouped_by");
  c.participants = ints(member(j, "participants"));
  if (member(j, "counter_offsets").is_array())
    for (const Json& v : j["counter_offsets"])
      if (v.is_number_unsigned()) c.counter_offsets.push_back(v.get<std::uint64_t>());
  c.launches = whole<int>(j, "launches", 0);
  c.ns = summary_of(member(j, "ns"));
  c.cycles = summary_of(member(j, "cycles"));
  c.per_barrier_ns = number_or_nan(j, "per_barrier_ns");
  c.per_barrier_cycles = number_or_nan(j, "per_barrier_cycles");
  c.values = whole<int>(j, "values", 0);
  c.ops_per_us = number_or_nan(j, "ops_per_us");
  c.timed_out = boolean(j, "timed_out", false);
  c.unsupported = boolean(j, "unsupported", false);
  c.why = text(j, "why");
  return c;
}

// It holds the cases at every unit (a set of an earlier cumap does not).
bool holds_sync_cases(const Json& meta) { return member(member(meta, "cases"), "at_every_unit").is_array(); }

}  // namespace

ViewsLists views_lists(const RunSummary& s, const std::function<Json(int)>& unit_id, const Json& pooled_class) {
  const auto pair_json = [&](const RunSummary::PairValue& p) {
    return Json{{"a", unit_id(p.a)},
                {"b", unit_id(p.b)},
                {"ns", p.ns},
                {"per_class_ns", optional_numbers(p.per_class_ns)},
                {"group_a", p.group_a},
                {"group_b", p.group_b}};
  };
  ViewsLists lists{Json::array(), Json::array(), Json::array()};
  for (const RunSummary::Extremes& e : s.extremes) {
    Json slowest = Json::array(), fastest = Json::array();
    for (const RunSummary::PairValue& p : e.slowest) slowest.push_back(pair_json(p));
    for (const RunSummary::PairValue& p : e.fastest) fastest.push_back(pair_json(p));
    lists.extreme_pairs.push_back(
        {{"placement", e.placement}, {"classes", e.classes}, {"slowest", slowest}, {"fastest", fastest}});
  }
  for (const RunSummary::StandingOut& u : s.standing_out)
    lists.standing_out.push_back({{"unit", unit_id(u.unit)},
                                  {"group", u.group},
                                  {"term_ns", u.term_ns},
                                  {"from_median_ns", u.from_median_ns}});
  for (const RunSummary::BlockMeans& b : s.blocks)
    lists.block_means.push_back({{"placement", b.placement},
                                 {"home_class", b.home_class ? Json(*b.home_class) : pooled_class},
                                 {"by", b.by},
                                 {"blocks", b.blocks},
                                 {"mean_ns", optional_numbers(b.mean_ns)},
                                 {"cells", b.cells}});
  return lists;
}

RunHeader run_header_from_json(const Json& meta) {
  RunHeader h;
  h.tool_version = text(meta, "tool_version");
  h.timestamp_utc = text(meta, "timestamp_utc");
  h.host = text(meta, "host");
  h.command_line = text(meta, "command_line");
  h.wall_seconds = number(meta, "wall_seconds").value_or(0.0);
  h.backend = text(meta, "backend");
  const Json& device = member(meta, "device");
  h.device_name = text(device, "name");
  h.unit_name = text(device, "unit_name");
  h.driver_version = text(device, "driver_version");
  h.runtime_version = text(device, "runtime_version");
  if (member(device, "serial").is_string()) h.serials.push_back(device["serial"].get<std::string>());
  else if (member(device, "gpus").is_array())
    for (const Json& gpu : device["gpus"]) h.serials.push_back(text(gpu, "serial"));
  h.caveat = text(meta, "caveat");
  h.units = ints(member(meta, "units"));
  const Json& homes = member(meta, "homes");
  h.class_count = whole<int>(homes, "class_count", 0);
  if (member(homes, "sides").is_array())
    for (const Json& side : homes["sides"]) h.sides.push_back({text(side, "name"), ints(member(side, "units"))});
  return h;
}

Json structure_json(const StructureRow& row) {
  return {{"relation", row.relation},
          {"near_units", row.near_units},
          {"median_ns", number_or_null(row.median_ns)},
          {"p05_ns", number_or_null(row.p05_ns)},
          {"p95_ns", number_or_null(row.p95_ns)},
          {"cells", row.cells}};
}

Json gpu_pair_json(const std::string& placement, const RunSummary::GpuPair& p) {
  const GpuPairRow& r = p.row;
  return {{"placement", placement},
          {"gpu_a", r.gpu_a},
          {"gpu_b", r.gpu_b},
          {"flags_on", r.flags_on},
          {"link", p.link},
          {"cells", r.cells},
          {"oneway_ns_median", number_or_null(r.oneway_ns.median)},
          {"p05_ns", number_or_null(r.oneway_ns.p05)},
          {"p95_ns", number_or_null(r.oneway_ns.p95)},
          {"min_ns", number_or_null(r.oneway_ns.min)},
          {"max_ns", number_or_null(r.oneway_ns.max)}};
}

Json cross_gpu_json(const std::string& placement, const CrossGpuStructureRow& r) {
  return {{"placement", placement},
          {"gpu_a", r.gpu_a},
          {"gpu_b", r.gpu_b},
          {"flags_on", fmt::format("g{}", r.flags_on)},
          {"home_class", r.home_class},
          {"side_a", r.side_a},
          {"side_b", r.side_b},
          {"median_ns", number_or_null(r.median_ns)},
          {"p05_ns", number_or_null(r.p05_ns)},
          {"p95_ns", number_or_null(r.p95_ns)},
          {"cells", r.cells}};
}

Json to_json(const RunHeader& h) {
  Json device = {{"name", h.device_name},
                 {"unit_name", h.unit_name},
                 {"driver_version", h.driver_version},
                 {"runtime_version", h.runtime_version}};
  // One GPU: its serial beside its other facts; several: in each one's entry.
  if (h.serials.size() == 1) device["serial"] = h.serials.front();
  if (h.serials.size() > 1)
    for (const std::string& serial : h.serials) device["gpus"].push_back({{"serial", serial}});
  Json j = {{"tool", "cumap"},
            {"tool_version", h.tool_version},
            {"timestamp_utc", h.timestamp_utc},
            {"host", h.host},
            {"command_line", h.command_line},
            {"wall_seconds", h.wall_seconds},
            {"backend", h.backend},
            {"device", device},
            {"units", h.units}};
  if (!h.caveat.empty()) j["caveat"] = h.caveat;
  if (h.class_count > 0) {
    Topology sides;
    sides.groups = h.sides;
    j["homes"] = {{"class_count", h.class_count}, {"sides", to_json(sides)["groups"]}};
  }
  return j;
}

Json to_json(const RunSummary& s) {
  Json j = to_json(s.run);
  j["interrupted"] = s.interrupted;
  j["options"] = {{"via", s.via},
                  {"probe", s.probe},
                  {"samples", s.samples},
                  {"timeout_ms", s.timeout_ms},
                  {"pairs_csv", s.pairs_csv}};
  j["iters"] = s.iters;
  if (s.has_homes()) {
    j["lines_per_class"] = s.lines_per_class;
    if (s.run.across_devices()) {
      j["cross_lines"] = s.cross_lines;
      j["cross_samples"] = s.cross_samples;
      j["cross_warmup"] = s.cross_warmup;
    }
    Json pooled = Json::array(), by_class = Json::array();
    for (const StructureRow& row : s.same_line_pooled) pooled.push_back(structure_json(row));
    for (const RunSummary::Structure& row : s.structure) {
      Json r = structure_json(row.row);
      r["placement"] = row.placement;
      r["home_class"] = row.home_class ? Json(*row.home_class) : Json();
      by_class.push_back(std::move(r));
    }
    j["structure"] = pooled;
    j["structure_by_class"] = by_class;
  }
  Json maps = Json::array(), gpus = Json::array(), cross = Json::array();
  for (const RunSummary::Map& m : s.maps) {
    maps.push_back(map_json(m));
    for (const RunSummary::GpuPair& p : m.gpu_pairs) gpus.push_back(gpu_pair_json(m.placement, p));
    for (const CrossGpuStructureRow& r : m.cross_gpu_structure) cross.push_back(cross_gpu_json(m.placement, r));
  }
  j["maps"] = maps;
  if (s.has_views) j["views"] = views_json(s);
  // Only where there is one: a run with nothing to warn of keeps no key.
  if (!s.warnings.empty()) j["warnings"] = s.warnings;
  if (!gpus.empty()) j["gpus"] = gpus;
  if (!cross.empty()) j["cross_gpu_structure"] = cross;
  return j;
}

RunSummary run_summary_from_json(const Json& meta, const std::string& source) {
  const auto not_a_map = [&](const std::string& why) {
    return UsageError(fmt::format("{} is not the meta.json of a cumap map: {}", printable_excerpt(source, 160), why));
  };
  if (!meta.is_object() || text(meta, "tool") != "cumap") throw not_a_map("it does not say \"tool\": \"cumap\"");
  if (!member(meta, "maps").is_array())
    throw not_a_map(meta.contains("homes") ? "it holds no maps (cumap homes wrote it)" : "it holds no maps");
  RunSummary s;
  try {
    s.run = run_header_from_json(meta);
    s.interrupted = boolean(meta, "interrupted", false);
    const Json& options = member(meta, "options");
    s.via = text(options, "via");
    if (s.via.empty()) s.via = meta.contains("homes") ? "global" : "dsm";
    s.probe = text(options, "probe");
    s.samples = whole<int>(options, "samples", 0);
    s.timeout_ms = number(options, "timeout_ms").value_or(0.0);
    // Runs before --no-pairs-csv always wrote it.
    s.pairs_csv = boolean(options, "pairs_csv", true);
    s.iters = whole<int>(meta, "iters", 0);
    s.lines_per_class = whole<int>(meta, "lines_per_class", 0);
    s.cross_lines = whole<int>(meta, "cross_lines", 0);
    // Runs before --cross-samples measured pairs across GPUs with the map's own.
    s.cross_samples = whole<int>(meta, "cross_samples", s.cross_lines > 0 ? s.samples : 0);
    s.cross_warmup = whole<int>(meta, "cross_warmup", s.cross_lines > 0 ? whole<int>(options, "warmup", 0) : 0);
    for (const Json& m : meta["maps"]) s.maps.push_back(map_of(m));
    s.warnings = texts(member(meta, "warnings"));
    const auto map_named = [&](const std::string& placement) -> RunSummary::Map* {
      for (RunSummary::Map& m : s.maps)
        if (m.placement == placement) return &m;
      return nullptr;
    };
    if (member(meta, "gpus").is_array())
      for (const Json& row : meta["gpus"])
        if (RunSummary::Map* m = map_named(text(row, "placement"))) m->gpu_pairs.push_back(gpu_pair_of(row));
    if (member(meta, "cross_gpu_structure").is_array())
      for (const Json& row : meta["cross_gpu_structure"])
        if (RunSummary::Map* m = map_named(text(row, "placement")))
          if (const auto r = cross_gpu_of(row)) m->cross_gpu_structure.push_back(*r);

    if (member(meta, "structure").is_array())
      for (const Json& row : meta["structure"]) s.same_line_pooled.push_back(structure_of(row));
    // Per placement and class where meta.json has them; else (cumap 0.1.0)
    // the same-line rows with the classes pooled.
    if (member(meta, "structure_by_class").is_array()) {
      for (const Json& row : meta["structure_by_class"])
        s.structure.push_back({text(row, "placement"),
                               json_fields::exact<int>(member(row, "home_class")),
                               structure_of(row)});
    } else {
      for (const StructureRow& row : s.same_line_pooled) s.structure.push_back({"same-line", std::nullopt, row});
    }
    read_views(s, member(meta, "views"));
  } catch (const nlohmann::json::exception& e) {
    throw not_a_map(printable_excerpt(e.what(), 120));
  }
  add_findings(s);
  return s;
}

bool is_sync_meta(const Json& meta) {
  const std::string command = text(meta, "command");
  return text(meta, "tool") == "cumap" && (command == "barrier" || command == "contention");
}


Json to_json(const SyncSummary& s) {
  Json j = to_json(s.run);
  j["command"] = s.command;
  j["complete"] = s.complete;
  j["interrupted"] = s.interrupted;
  Json cases = Json::array();
  for (const SyncCaseResult& c : s.at_every_unit) cases.push_back(case_json(c));
  j["cases"] = {{"planned", s.planned_cases}, {"measured", s.measured_cases}, {"at_every_unit", cases}};
  j["settings"] = {{"probe", s.probe}, {"episodes", s.episodes}, {"warmup", s.warmup}, {"launches", s.launches}};
  if (s.contention()) j["settings"]["ops_per_batch"] = s.ops_per_batch;
  j["clock"] = {{"clock_hz", s.has_cycles() ? Json(s.clock_hz) : Json()}};
  j["left_out"] = s.left_out;
  j["across_gpus"] = s.across_gpus;
  return j;
}

SyncSummary sync_summary_from_json(const Json& meta) {
  if (!is_sync_meta(meta))
    throw UsageError("meta.json is not that of cumap barrier or cumap contention: it does not say \"tool\": "
                     "\"cumap\" with \"command\": \"barrier\" or \"contention\"");
  SyncSummary s;
  s.command = text(meta, "command");
  s.run = run_header_from_json(meta);
  s.complete = boolean(meta, "complete", false);
  s.interrupted = boolean(meta, "interrupted", false);
  const Json& cases = member(meta, "cases");
  s.planned_cases = whole<std::size_t>(cases, "planned", 0);
  s.measured_cases = whole<std::size_t>(cases, "measured", 0);
  const Json& settings = member(meta, "settings");
  s.probe = text(settings, "probe");
  s.episodes = whole<int>(settings, "episodes", 0);
  s.warmup = whole<int>(settings, "warmup", 0);
  s.launches = whole<int>(settings, "launches", 1);  // a set from before launches were counted had one
  s.ops_per_batch = whole<int>(settings, "ops_per_batch", 0);
  s.clock_hz = number(member(meta, "clock"), "clock_hz").value_or(0.0);
  s.has_per_barrier = !s.contention();
  s.across_gpus = boolean(meta, "across_gpus", false);
  if (holds_sync_cases(meta))
    for (const Json& c : cases["at_every_unit"]) s.at_every_unit.push_back(case_of(c));
  s.left_out = texts(member(meta, "left_out"));
  add_verdicts(s);
  return s;
}

SyncSummary sync_summary_from_json(const Json& meta, const SyncCsv& csv) {
  SyncSummary s = sync_summary_from_json(meta);
  s.has_per_barrier = csv.has_per_barrier;
  s.across_gpus = csv.across_gpus;
  s.measured_cases = csv.cases.size();
  s.at_every_unit = cases_at_every_unit(csv.cases);
  add_verdicts(s);
  return s;
}

SyncSummary read_sync_summary(const OutputMeta& read) {
  if (holds_sync_cases(read.meta)) return sync_summary_from_json(read.meta);
  const std::string command = text(read.meta, "command");
  try {
    return sync_summary_from_json(read.meta, read_sync_csv(read.file.parent_path() / (command + ".csv"), command));
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("summary: {}", e.what()));
  }
}

}  // namespace cumap
