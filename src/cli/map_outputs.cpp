#include "cli/map_outputs.hpp"

#include <future>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/homes_outputs.hpp"
#include "cumap/outputs.hpp"
#include "cumap/render.hpp"

namespace cumap::cli {
namespace {

std::string class_words(int home_class) {
  return home_class == MapSpec::kAllClasses ? "all home classes" : fmt::format("flags in home class {}", home_class);
}

std::optional<Topology> groups_for_display(const MapResult& r) {
  if (r.display_groups.groups.size() < 2) return std::nullopt;
  return r.display_groups;
}

// A matrix CSV and its heatmap, in display order.
HeatmapPanel write_map(OutputDirectory& out, const Options& o, const MapResult& r, const LatencyMap& map,
                       const std::string& stem, HeatmapStyle style) {
  const ValueMatrix shown = map.oneway_ns().reordered(r.display_order);
  const Summary cells = summarize(shown.values);  // the diagonal and missing cells (NaN) are ignored
  out.write(fmt::format("matrix-{}.csv", stem), matrix_csv(shown));
  style.title = heatmap_title(r.device, map.placement(), o.probe, map.spec.home_class, cells);
  out.write(fmt::format("heatmap-{}.png", stem), encode_png(render_heatmap({{stem, shown}}, style)));
  return {fmt::format("{} (median {:.0f} ns)", to_string(map.placement()), cells.median), shown};
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

std::string heatmap_title(const DeviceInfo& device, Placement placement, Probe probe, int home_class,
                          const Summary& cells) {
  return fmt::format("{} - {}, {}, {} - one-way median {:.1f} ns (range {:.1f}-{:.1f})", device.name,
                     to_string(placement), to_string(probe), class_words(home_class), cells.median, cells.min,
                     cells.max);
}

void write_map_outputs(const Options& o, const MapResult& r, OutputDirectory& out) {
  // The two largest texts (a GPU run's pairs.csv is tens of MB, meta.json
  // recomputes every map's agreement and fits) only read `r`: they are made
  // on other threads while this one draws the heatmaps. Files are still
  // written one at a time, in this order, meta.json last.
  std::future<std::string> pairs = std::async(std::launch::async, [&] {
    std::vector<LatencyMap> every_map;
    for (const PlacementResult& p : r.placements) every_map.insert(every_map.end(), p.per_class.begin(), p.per_class.end());
    return pairs_csv(every_map, o.via);
  });
  std::future<std::string> meta = std::async(std::launch::async, [&] { return make_meta(o, r).dump(2) + "\n"; });

  HeatmapStyle style;
  style.colormap = o.colormap;
  style.groups = groups_for_display(r);

  std::vector<HeatmapPanel> panels;
  for (const PlacementResult& p : r.placements) {
    const std::string name = o.via == Path::Dsm ? "dsm" : std::string(to_string(p.placement));
    panels.push_back(write_map(out, o, r, p.headline, name, style));
    if (p.per_class.size() > 1)
      for (const LatencyMap& m : p.per_class)
        write_map(out, o, r, m, fmt::format("{}-home{}", name, m.spec.home_class), style);
    if (o.via != Path::Dsm && (r.lines_per_class > 1 || p.per_class.size() > 1))
      out.write(fmt::format("line-spread-{}.csv", name),
                matrix_csv(p.headline.line_spread_ns().reordered(r.display_order)));
  }
  if (panels.size() > 1) {
    style.title = fmt::format("{} - one-way {} ping-pong latency, {} {}s, {}", r.device.name, to_string(o.probe),
                              r.display_order.size(), r.device.unit_name, class_words(MapSpec::kAllClasses));
    out.write("heatmap.png", encode_png(render_heatmap(panels, style)));
  }
  out.write("pairs.csv", pairs.get());
  for (const PlacementResult& p : r.placements)
    if (p.stats.extra.contains("cluster_barrier"))
      out.write("cluster-barrier.csv", cluster_barrier_csv(p.stats.extra["cluster_barrier"]));
  write_homes_outputs(o, r, out);
  // Last: a meta.json says the other files are complete.
  out.write("meta.json", meta.get());
}

}  // namespace cumap::cli
