#include "report/summary_formats.hpp"

#include <utility>

#include <fmt/format.h>

#include "core/units.hpp"
#include "report/json_number.hpp"
#include "report/summary_json.hpp"
#include "report/summary_text.hpp"

namespace cumap {
namespace {

using Json = nlohmann::json;
using summary_text::csv_field;
using summary_text::csv_number;

bool complete(const RunSummary::Map& m) { return m.complete && m.timed_out_pairs.empty() && m.completed_pairs > 0; }

}  // namespace

std::string summary_csv(const RunSummary& s) {
  std::string out = "placement,home_class,relation,near_units,where,median_ns,p05_ns,p95_ns,cells\n";
  for (const RunSummary::Map& m : s.maps)
    out += fmt::format("{},all,all,,every pair,{},{},{},{}\n", csv_field(s.map_name(m)), csv_number(m.median_ns),
                       csv_number(m.p05_ns), csv_number(m.p95_ns), m.completed_pairs);
  for (const RunSummary::Structure& row : s.structure)
    out += fmt::format("{},{},{},{},{},{},{},{},{}\n", csv_field(row.placement),
                       row.home_class ? std::to_string(*row.home_class) : "all", csv_field(row.row.relation),
                       row.row.near_units, csv_field(where_words(row, s.run.class_count)),
                       csv_number(row.row.median_ns), csv_number(row.row.p05_ns), csv_number(row.row.p95_ns),
                       row.row.cells);
  for (const RunSummary::Map& m : s.maps)
    for (const RunSummary::GpuPair& p : m.gpu_pairs) {
      const GpuPairRow& r = p.row;
      out += fmt::format("{},all,gpu-pair,,{},{},{},{},{}\n", csv_field(m.placement),
                         csv_field(fmt::format("g{}-g{}, flags on {}, {}", r.gpu_a, r.gpu_b, r.flags_on, p.link)),
                         csv_number(r.oneway_ns.median), csv_number(r.oneway_ns.p05), csv_number(r.oneway_ns.p95),
                         r.cells);
    }
  for (const RunSummary::Map& m : s.maps)
    for (const CrossGpuStructureRow& r : m.cross_gpu_structure)
      out += fmt::format("{},{},across-gpus,,{},{},{},{},{}\n", csv_field(m.placement), r.home_class,
                         csv_field(fmt::format("g{}-g{}, flags on g{}, side {} on g{}, side {} on g{}", r.gpu_a,
                                               r.gpu_b, r.flags_on, r.side_a, r.gpu_a, r.side_b, r.gpu_b)),
                         csv_number(r.median_ns), csv_number(r.p05_ns), csv_number(r.p95_ns), r.cells);
  return out;
}

Json header_fields_json(const RunHeader& run) {
  return {{"tool_version", run.tool_version},
          {"timestamp_utc", run.timestamp_utc},
          {"host", run.host},
          {"command_line", run.command_line},
          {"wall_seconds", run.wall_seconds},
          {"device",
           {{"name", run.device_name},
            {"backend", run.backend},
            {"unit_name", run.unit_word()},
            {"driver_version", run.driver_version},
            {"runtime_version", run.runtime_version},
            {"serials", run.serials}}},
          {"units", run.units.size()},
          {"class_count", run.class_count}};
}

Json across_gpus_fields_json(const RunSummary& s) {
  Json pairs = Json::array(), structure = Json::array();
  for (const RunSummary::Map& m : s.maps) {
    for (const RunSummary::GpuPair& p : m.gpu_pairs) pairs.push_back(gpu_pair_json(m.placement, p));
    for (const CrossGpuStructureRow& r : m.cross_gpu_structure) structure.push_back(cross_gpu_json(m.placement, r));
  }
  return {{"gpu_pairs", pairs}, {"structure", structure}, {"findings", s.across_gpu_findings}};
}

Json views_fields_json(const RunSummary& s) {
  if (!s.has_views) return nullptr;
  const bool across = s.run.across_devices();
  ViewsLists lists = views_lists(s, [across](int unit) { return Json(format_unit_id(unit, across)); }, Json("all"));
  return {{"extreme_pairs", std::move(lists.extreme_pairs)},
          {"fit_placement", s.unit_terms.placement},
          {"stand_out_ns", s.stand_out_ns},
          {"standing_out", std::move(lists.standing_out)},
          {"block_means", std::move(lists.block_means)}};
}

Json summary_fields_json(const RunSummary& s) {
  const RunHeader& run = s.run;
  Json maps = Json::array();
  for (const RunSummary::Map& m : s.maps) {
    std::vector<std::string> late;
    for (const auto& [a, b] : m.timed_out_pairs)
      late.push_back(format_unit_id(a, run.across_devices()) + "-" + format_unit_id(b, run.across_devices()));
    maps.push_back({{"placement", s.map_name(m)},
                    {"complete", complete(m)},
                    {"pairs", m.pairs},
                    {"completed_pairs", m.completed_pairs},
                    {"median_ns", number_or_null(m.median_ns)},
                    {"p05_ns", number_or_null(m.p05_ns)},
                    {"p95_ns", number_or_null(m.p95_ns)},
                    {"min_ns", number_or_null(m.min_ns)},
                    {"max_ns", number_or_null(m.max_ns)},
                    {"pairs_per_round", m.pairs_per_round},
                    {"timed_out_pairs", late}});
  }
  Json structure = Json::array();
  for (const RunSummary::Structure& row : s.structure) {
    Json r = structure_json(row.row);
    r.update(Json{{"placement", row.placement},
                  {"home_class", row.home_class ? Json(*row.home_class) : Json("all")},
                  {"where", where_words(row, run.class_count)}});
    structure.push_back(std::move(r));
  }
  Json barrier = Json::array();
  for (const RunSummary::ClusterBarrier& b : s.cluster_barrier())
    barrier.push_back({{"cluster_size", b.cluster_size}, {"clusters", b.clusters}, {"median_ns", b.median_ns},
                       {"median_cycles", b.median_cycles}});
  std::vector<std::size_t> side_units;
  for (const UnitGroup& side : run.sides) side_units.push_back(side.units.size());
  Json j = header_fields_json(run);
  j.update(Json{{"interrupted", s.interrupted},
                {"across_devices", run.across_devices()},
                {"via", s.via},
                {"probe", s.probe},
                {"iters", s.iters},
                {"samples", s.samples},
                {"lines_per_class", s.lines_per_class},
                {"cross_lines", s.cross_lines},
                {"cross_samples", s.cross_samples},
                {"cross_warmup", s.cross_warmup},
                {"timeout_ms", s.timeout_ms},
                {"side_units", side_units},
                {"no_pair_completed", s.no_pair_completed()},
                {"maps", maps},
                {"structure", structure},
                {"cluster_barrier", barrier},
                {"across_gpus", across_gpus_fields_json(s)},
                {"views", views_fields_json(s)},
                {"findings", s.findings}});
  if (!run.caveat.empty()) j["caveat"] = run.caveat;
  return j;
}

}  // namespace cumap
