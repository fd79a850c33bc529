#include "report/map_outputs.hpp"

#include <future>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/homes_outputs.hpp"
#include "report/gpu_table.hpp"
#include "report/output_set.hpp"
#include "report/matrix_csv.hpp"
#include "report/pairs_csv.hpp"
#include "report/meta_json.hpp"
#include "report/report_html.hpp"
#include "report/unit_files.hpp"
#include "cumap/render.hpp"
#include "core/units.hpp"

namespace cumap {
namespace {

// What the flags' lines were, for titles.
std::string flag_words(Path via, int home_class) {
  if (via == Path::Dsm) return "flags in shared memory";
  return home_class == MapSpec::kAllClasses ? "all home classes" : fmt::format("flags in home class {}", home_class);
}

std::optional<Topology> groups_for_display(const MapResult& r) {
  if (r.display_groups.groups.size() < 2) return std::nullopt;
  return r.display_groups;
}

// A matrix CSV and its heatmap, in display order; the panel is for heatmap.png.
HeatmapPanel add_map(PendingFiles& files, const MapResult& r, const MapSpec& map, const ValueMatrix& oneway_ns,
                     const std::string& stem, HeatmapStyle style) {
  ValueMatrix shown = oneway_ns.reordered(r.display_order);
  const Summary cells = summarize(shown.values);  // the diagonal and missing cells (NaN) are ignored
  style.title = heatmap_title(r.device, map.placement, r.settings.probe, flag_words(r.settings.via, map.home_class), cells);
  files.add(fmt::format("matrix-{}.csv", stem), [shown] { return matrix_csv(shown); });
  files.add(fmt::format("heatmap-{}.png", stem),
            [shown, stem, style] { return encode_png(render_heatmap({{stem, shown}}, style)); });
  const std::string median = cells.count > 0 ? fmt::format("median {:.0f} ns", cells.median) : "no pair completed";
  return {fmt::format("{} ({})", to_string(map.placement), median), std::move(shown)};
}

// cluster_size,clusters,median_cycles,median_ns: the latency of one
// barrier.cluster (cluster.sync()) by cluster size, from the dsm run.
std::string cluster_barrier_csv(const std::vector<ClusterBarrierRow>& table) {
  std::string out = "cluster_size,clusters,median_cycles,median_ns\n";
  for (const ClusterBarrierRow& row : table)
    out += fmt::format("{},{},{:.1f},{:.2f}\n", row.cluster_size, row.clusters, row.median_cycles, row.median_ns);
  return out;
}

}  // namespace

std::string heatmap_title(const DeviceInfo& device, Placement placement, Probe probe, const std::string& flags,
                          const Summary& cells) {
  // A map whose every pair timed out has no value to name.
  if (cells.count == 0)
    return fmt::format("{} - {}, {}, {} - no pair completed", device.name,
                       to_string(placement), to_string(probe), flags);
  return fmt::format("{} - {}, {}, {} - one-way median {:.1f} ns (range {:.1f}-{:.1f})", device.name,
                     to_string(placement), to_string(probe), flags, cells.median, cells.min, cells.max);
}

void write_map_outputs(const MapResult& r, OutputSet& out) {
  const MapSettings& settings = r.settings;
  // Every file only reads `r`: all are made at once on other threads, and
  // written one at a time in this order, meta.json last.
  PendingFiles files;
  HeatmapStyle style;
  style.colormap = settings.colormap;
  style.groups = groups_for_display(r);

  std::vector<HeatmapPanel> panels;
  for (const PlacementResult& p : r.placements) {
    const std::string name = settings.has_homes() ? std::string(to_string(p.placement)) : "dsm";
    panels.push_back(add_map(files, r, p.headline, p.headline_ns, name, style));
    if (p.per_class.size() > 1)
      for (std::size_t c = 0; c < p.per_class.size(); ++c)
        add_map(files, r, p.per_class[c].spec, p.per_class_ns[c],
                fmt::format("{}-home{}", name, p.per_class[c].spec.home_class), style);
    if (settings.has_homes() && (settings.lines_per_class > 1 || p.per_class.size() > 1))
      files.add(fmt::format("line-spread-{}.csv", name),
                [&r, &p] { return matrix_csv(p.line_spread_ns.reordered(r.display_order)); });
  }
  if (panels.size() > 1) {
    style.title = fmt::format("{} - one-way {} ping-pong latency, {} {}s, {}", r.device.name,
                              to_string(settings.probe), r.display_order.size(), r.device.unit_name,
                              flag_words(settings.via, MapSpec::kAllClasses));
    files.add("heatmap.png", [panels, style] { return encode_png(render_heatmap(panels, style)); });
  }
  files.add("pairs.csv", [&] {
    std::vector<const LatencyMap*> every_map;
    for (const PlacementResult& p : r.placements)
      for (const LatencyMap& m : p.per_class) every_map.push_back(&m);
    return pairs_csv(every_map, settings.via);
  });
  // Across GPUs: the GPU x GPU table.
  if (ids_span_devices(r.display_order))
    files.add("gpus.csv", [&r] { return gpus_csv(r); });
  for (const PlacementResult& p : r.placements)
    if (!p.stats.cluster_barrier.empty())
      files.add("cluster-barrier.csv", [&p] { return cluster_barrier_csv(p.stats.cluster_barrier); });
  if (settings.has_homes()) add_homes_outputs(r, files);
  files.add("report.html", [&r] { return report_html(r); });
  // meta.json's JSON, made once: summary.md is made from it too.
  const std::shared_future<nlohmann::json> meta =
      std::async(std::launch::async, [&r] { return make_meta(r); }).share();
  add_unit_and_summary_files(r, meta, files);
  files.write_all_then_meta(out, [meta] { return meta.get(); });
}

}  // namespace cumap
