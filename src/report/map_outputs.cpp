#include "report/map_outputs.hpp"

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/homes_outputs.hpp"
#include "report/gpu_table.hpp"
#include "report/output_directory.hpp"
#include "report/matrix_csv.hpp"
#include "report/pairs_csv.hpp"
#include "report/meta_json.hpp"
#include "report/report_html.hpp"
#include "cumap/render.hpp"
#include "core/units.hpp"

namespace cumap::cli {
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
HeatmapPanel add_map(PendingFiles& files, const Options& o, const MapResult& r, const MapSpec& map,
                     const ValueMatrix& oneway_ns, const std::string& stem, HeatmapStyle style) {
  ValueMatrix shown = oneway_ns.reordered(r.display_order);
  const Summary cells = summarize(shown.values);  // the diagonal and missing cells (NaN) are ignored
  style.title = heatmap_title(r.device, map.placement, o.probe, flag_words(o.via, map.home_class), cells);
  files.add(fmt::format("matrix-{}.csv", stem), [shown] { return matrix_csv(shown); });
  files.add(fmt::format("heatmap-{}.png", stem),
            [shown, stem, style] { return encode_png(render_heatmap({{stem, shown}}, style)); });
  return {fmt::format("{} (median {:.0f} ns)", to_string(map.placement), cells.median), std::move(shown)};
}

// cluster_size,clusters,median_cycles,median_ns: the latency of one
// barrier.cluster (cluster.sync()) by cluster size, from the dsm run.
std::string cluster_barrier_csv(const nlohmann::json& table) {
  std::string out = "cluster_size,clusters,median_cycles,median_ns\n";
  for (const auto& row : table)
    out += fmt::format("{},{},{:.1f},{:.2f}\n", row["cluster_size"].get<int>(), row["clusters"].get<int>(),
                       row["median_cycles"].get<double>(), row["median_ns"].get<double>());
  return out;
}

}  // namespace

std::string heatmap_title(const DeviceInfo& device, Placement placement, Probe probe, const std::string& flags,
                          const Summary& cells) {
  return fmt::format("{} - {}, {}, {} - one-way median {:.1f} ns (range {:.1f}-{:.1f})", device.name,
                     to_string(placement), to_string(probe), flags, cells.median, cells.min, cells.max);
}

void write_map_outputs(const Options& o, const MapResult& r, OutputDirectory& out) {
  // Every file only reads `r`: all are made at once on other threads, and
  // written one at a time in this order, meta.json last.
  PendingFiles files;
  HeatmapStyle style;
  style.colormap = o.colormap;
  style.groups = groups_for_display(r);

  std::vector<HeatmapPanel> panels;
  for (const PlacementResult& p : r.placements) {
    const std::string name = o.via == Path::Dsm ? "dsm" : std::string(to_string(p.placement));
    panels.push_back(add_map(files, o, r, p.headline, p.headline_ns, name, style));
    if (p.per_class.size() > 1)
      for (std::size_t c = 0; c < p.per_class.size(); ++c)
        add_map(files, o, r, p.per_class[c].spec, p.per_class_ns[c],
                fmt::format("{}-home{}", name, p.per_class[c].spec.home_class), style);
    if (o.via != Path::Dsm && (r.lines_per_class > 1 || p.per_class.size() > 1))
      files.add(fmt::format("line-spread-{}.csv", name),
                [&r, &p] { return matrix_csv(p.line_spread_ns.reordered(r.display_order)); });
  }
  if (panels.size() > 1) {
    style.title = fmt::format("{} - one-way {} ping-pong latency, {} {}s, {}", r.device.name, to_string(o.probe),
                              r.display_order.size(), r.device.unit_name, flag_words(o.via, MapSpec::kAllClasses));
    files.add("heatmap.png", [panels, style] { return encode_png(render_heatmap(panels, style)); });
  }
  files.add("pairs.csv", [&] {
    std::vector<const LatencyMap*> every_map;
    for (const PlacementResult& p : r.placements)
      for (const LatencyMap& m : p.per_class) every_map.push_back(&m);
    return pairs_csv(every_map, o.via);
  });
  // Across GPUs: the GPU x GPU table.
  if (ids_span_devices(r.display_order))
    files.add("gpus.csv", [&r] { return gpus_csv(r.placements, r.device.extra.value("links", nlohmann::json::array())); });
  for (const PlacementResult& p : r.placements)
    if (p.stats.extra.contains("cluster_barrier"))
      files.add("cluster-barrier.csv", [&p] { return cluster_barrier_csv(p.stats.extra["cluster_barrier"]); });
  if (o.via != Path::Dsm) add_homes_outputs(o, r, files);
  files.add("report.html", [&r] { return report_html(r); });
  files.write_all_then_meta(out, [&] { return make_meta(o, r); });
}

}  // namespace cumap::cli
