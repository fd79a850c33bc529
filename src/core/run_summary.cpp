// A map's summary from its result (run_summary.hpp); the sentences are in
// run_findings.cpp and across_gpu_findings.cpp.
#include "core/run_summary.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>

#include <fmt/format.h>

#include "core/map_result.hpp"
#include "core/map_views.hpp"
#include "core/stats.hpp"

namespace cumap {
namespace {

std::optional<double> value_of(double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; }

// The link between GPUs a and b as the device reports it.
std::string gpu_link(const DeviceInfo& device, int a, int b) {
  if (a == b) return "same GPU";
  for (const DeviceInfo::Link& l : device.links)
    if ((l.gpu_a == a && l.gpu_b == b) || (l.gpu_a == b && l.gpu_b == a)) return l.link;
  return "unknown";
}

// An option as meta.json records it (MapSettings::options), or `otherwise`
// where a result built without options has none.
template <typename T>
T recorded(const nlohmann::json& options, const char* key, T otherwise) {
  if (!options.is_object() || !options.contains(key)) return otherwise;
  const nlohmann::json& v = options[key];
  if constexpr (std::is_same_v<T, std::string>) return v.is_string() ? v.get<std::string>() : otherwise;
  else return v.is_number() ? v.get<T>() : otherwise;
}

RunSummary::Map map_of(const MapResult& r, const PlacementResult& p) {
  RunSummary::Map m;
  m.placement = to_string(p.placement);
  const PairCounts pairs = count_pairs(p.headline.units, p.per_class);
  m.pairs = pairs.all;
  m.completed_pairs = pairs.completed;
  const Summary cells = summarize(p.headline_ns.values);  // NaN cells are ignored
  m.median_ns = value_of(cells.median);
  m.p05_ns = value_of(cells.p05);
  m.p95_ns = value_of(cells.p95);
  m.min_ns = value_of(cells.min);
  m.max_ns = value_of(cells.max);
  m.pairs_per_round = p.pairs_per_round;
  m.timed_out_pairs = timed_out_pairs(p.per_class);
  // Complete: every planned pair measured; not when a stop request ended the
  // placement early or any measurement timed out.
  m.complete = p.complete && m.timed_out_pairs.empty();
  for (const ClusterBarrierRow& row : p.stats.cluster_barrier)
    m.cluster_barrier.push_back({row.cluster_size, row.clusters, row.median_ns, row.median_cycles});
  for (const GpuPairRow& row : p.gpu_table) m.gpu_pairs.push_back({row, gpu_link(r.device, row.gpu_a, row.gpu_b)});
  m.cross_gpu_structure = p.cross_gpu_structure;
  m.checks = p.checks;
  // As meta.json records a comparison: its size, r and median difference
  // (the medians compared are the map's, not the check's news).
  for (SelfCheck& c : m.checks)
    for (Agreement* a : {&c.agreement, &c.serial_repeat}) a->median_x = a->median_y = 0.0;
  return m;
}

}  // namespace

namespace {

bool same_value(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

bool same_agreement(const Agreement& a, const Agreement& b) {
  return a.n == b.n && same_value(a.pearson_r, b.pearson_r) && same_value(a.median_rel_diff, b.median_rel_diff) &&
         same_value(a.median_x, b.median_x) && same_value(a.median_y, b.median_y);
}

bool same_check(const SelfCheck& a, const SelfCheck& b) {
  return a.pairs_per_round == b.pairs_per_round && a.pilot == b.pilot && a.passed == b.passed &&
         same_agreement(a.agreement, b.agreement) && same_agreement(a.serial_repeat, b.serial_repeat) &&
         same_value(a.bias, b.bias) && same_value(a.bias_uncertainty, b.bias_uncertainty) &&
         same_value(a.sampling_noise, b.sampling_noise) && same_value(a.earlier_serial_repeat, b.earlier_serial_repeat);
}

}  // namespace

bool RunSummary::Map::operator==(const Map& o) const {
  const auto members = [](const Map& m) {
    return std::tie(m.placement, m.complete, m.pairs, m.completed_pairs, m.median_ns, m.p05_ns, m.p95_ns, m.min_ns,
                    m.max_ns, m.pairs_per_round, m.timed_out_pairs, m.cluster_barrier, m.gpu_pairs,
                    m.cross_gpu_structure);
  };
  return members(*this) == members(o) && checks.size() == o.checks.size() &&
         std::equal(checks.begin(), checks.end(), o.checks.begin(), same_check);
}

bool RunSummary::no_pair_completed() const {
  return std::none_of(maps.begin(), maps.end(), [](const Map& m) { return m.completed_pairs > 0; });
}

bool RunSummary::across_gpus() const {
  return std::any_of(maps.begin(), maps.end(),
                     [](const Map& m) { return !m.gpu_pairs.empty() || !m.cross_gpu_structure.empty(); });
}

std::vector<RunSummary::ClusterBarrier> RunSummary::cluster_barrier() const {
  std::vector<ClusterBarrier> rows;
  for (const Map& m : maps) rows.insert(rows.end(), m.cluster_barrier.begin(), m.cluster_barrier.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const ClusterBarrier& a, const ClusterBarrier& b) { return a.cluster_size < b.cluster_size; });
  return rows;
}

RunSummary run_summary(const MapResult& r) {
  RunSummary s;
  s.run = run_header(r);
  s.interrupted = r.interrupted;
  const nlohmann::json& options = r.settings.options;
  s.via = recorded(options, "via", std::string(to_string(r.settings.via)));
  s.probe = recorded(options, "probe", std::string(to_string(r.settings.probe)));
  s.samples = recorded(options, "samples", 0);
  s.timeout_ms = recorded(options, "timeout_ms", 0.0);
  s.iters = r.settings.iters;
  s.pairs_csv = r.settings.pairs_csv;
  // Inside a cluster (--via dsm) the flags are in shared memory: no flag
  // lines, home classes or sides.
  const bool homes = r.settings.has_homes();
  if (homes) {
    s.lines_per_class = r.settings.lines_per_class;
    if (s.run.across_devices()) {
      s.cross_lines = r.settings.cross_lines;
      s.cross_samples = r.settings.cross_samples;
      s.cross_warmup = r.settings.cross_warmup;
    }
  }
  for (const PlacementResult& p : r.placements) s.maps.push_back(map_of(r, p));
  if (homes) {
    for (const PlacementResult& p : r.placements)
      for (std::size_t c = 0; c < p.structure_by_class.size() && c < p.per_class.size(); ++c)
        for (const StructureRow& row : p.structure_by_class[c])
          s.structure.push_back({std::string(to_string(p.placement)), p.per_class[c].spec.home_class, row});
    s.same_line_pooled = r.structure;
  }
  std::vector<PlacementMatrices> matrices;
  for (const PlacementResult& p : r.placements) {
    PlacementMatrices m{s.map_name(s.maps[matrices.size()]), p.headline_ns, {}, p.fits};
    if (p.per_class.size() > 1)
      for (std::size_t c = 0; c < p.per_class.size() && c < p.per_class_ns.size(); ++c)
        m.per_class_ns.emplace_back(p.per_class[c].spec.home_class, p.per_class_ns[c]);
    matrices.push_back(std::move(m));
  }
  add_map_views(s, matrices, r.display_groups);
  add_findings(s);
  s.warnings = run_warnings(r, s);
  return s;
}

void add_findings(RunSummary& s) {
  s.findings = chip_findings(s);
  s.across_gpu_findings = across_gpu_findings(s);
}

std::string structure_words(const StructureRow& row) {
  if (row.relation == "same-side") return row.near_units == 2 ? "near side" : "far side";
  return row.near_units == 1 ? "across sides" : "across sides, both far";
}

std::string where_words(const RunSummary::Structure& s, int class_count) {
  std::string words = structure_words(s.row);
  if (!s.home_class || s.row.relation != "same-side") return words;
  if (s.row.near_units == 2) return fmt::format("{} (side {})", words, *s.home_class);
  if (s.row.near_units == 0 && class_count == 2) return fmt::format("{} (side {})", words, 1 - *s.home_class);
  return words;
}

}  // namespace cumap
