#include "report/map_outputs.hpp"
#include "core/map_result.hpp"

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/homes_outputs.hpp"
#include "report/gpu_table.hpp"
#include "report/output_set.hpp"
#include "report/report_html.hpp"
#include "report/unit_files.hpp"
#include "report/matrix_csv.hpp"
#include "report/pairs_csv.hpp"
#include "report/meta_json.hpp"
#include "report/render_file.hpp"
#include "render/render.hpp"
#include "core/units.hpp"
#include "core/stats.hpp"

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

// The style every map picture of the run shares: colormap, groups, axis titles.
HeatmapStyle map_style(const MapResult& r) {
  HeatmapStyle style;
  style.colormap = r.settings.colormap;
  style.groups = groups_for_display(r);
  std::tie(style.row_title, style.column_title) =
      map_axis_titles(r.device.unit_name, r.settings.ordered, display_order_words(r));
  return style;
}

// One matrix CSV of the run and its heatmap (none for a line spread).
struct MatrixPicture {
  PictureRecord record;
  HeatmapStyle style;
  ValueMatrix shown;  // in display order, as the CSV holds it
  Summary cells;      // of `shown`: the diagonal and missing cells (NaN) are ignored
};

MatrixPicture map_picture(const MapResult& r, const MapSpec& map, const ValueMatrix& oneway_ns,
                          const std::string& stem) {
  MatrixPicture p;
  p.shown = as_written(oneway_ns.reordered(r.display_order));
  p.cells = summarize(p.shown.values);
  p.style = map_style(r);
  p.style.title =
      heatmap_title(r.device, map.placement, r.settings.probe, flag_words(r.settings.via, map.home_class), p.cells);
  p.record = {fmt::format("matrix-{}.csv", stem), fmt::format("heatmap-{}.png", stem), p.style.title, stem,
              p.style.value_label, p.style.row_title, p.style.column_title, p.style.colormap};
  return p;
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
                    picture.style.column_title,  picture.style.colormap};
  return picture;
}

// A matrix CSV and its heatmap, in display order.
void add_map(PendingFiles& files, const MatrixPicture& p) {
  files.add(p.record.matrix, [shown = p.shown] { return matrix_csv(shown); });
  if (!p.record.heatmap.empty())
    files.add(p.record.heatmap, [shown = p.shown, title = p.record.panel_title, style = p.style] {
      return encode_png(render_heatmap({{title, shown}}, style));
    });
}

// heatmap.png, the first picture: each placement's maps by home class and
// the map of all classes together, side by side on one color scale, one row
// a placement. On one scale the classes show the chip (near and far homes)
// and the map of all classes shows how flat averaging over them makes it;
// with one class a placement's map alone, and the placements side by side.
void add_overview(PendingFiles& files, const MapResult& r,
                  const std::vector<std::pair<std::vector<MatrixPicture>, MatrixPicture>>& placements) {
  std::vector<HeatmapPanel> panels;
  std::size_t per_placement = 1;
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const auto& [classes, headline] = placements[i];
    const std::string placement = r.settings.has_homes() ? std::string(to_string(r.placements[i].placement)) : "dsm";
    if (classes.size() > 1) {
      for (std::size_t c = 0; c < classes.size(); ++c)
        panels.push_back({fmt::format("{}, home class {} ({})", placement,
                                      r.placements[i].per_class[c].spec.home_class, median_words(classes[c].cells)),
                          classes[c].shown});
      panels.push_back(
          {fmt::format("{}, all classes ({})", placement, median_words(headline.cells)), headline.shown});
      per_placement = std::max(per_placement, classes.size() + 1);
    } else {
      panels.push_back({fmt::format("{} ({})", placement, median_words(headline.cells)), headline.shown});
    }
  }
  if (panels.size() < 2) return;  // the one map's own picture says it all
  HeatmapStyle style = map_style(r);
  style.panels_per_row = per_placement > 1 ? static_cast<int>(per_placement) : 0;
  style.title = fmt::format("{} - one-way {} ping-pong latency, {} {}s, {} - one color scale", r.device.name,
                            to_string(r.settings.probe), r.display_order.size(), r.device.unit_name,
                            per_placement > 1 ? "by home class of the flags and all classes together"
                                              : flag_words(r.settings.via, MapSpec::kAllClasses));
  files.add("heatmap.png", [panels = std::move(panels), style] { return encode_png(render_heatmap(panels, style)); });
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
    return fmt::format("{} - {}, {}, {} - no pair completed", device.name, to_string(placement), to_string(probe),
                       flags);
  return fmt::format("{} - {}, {}, {} - one-way median {:.1f} ns (range {:.1f}-{:.1f})", device.name,
                     to_string(placement), to_string(probe), flags, cells.median, cells.min, cells.max);
}

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

void write_map_outputs(const MapResult& r, OutputSet& out) {
  const MapSettings& settings = r.settings;
  // Every file only reads `r`: all are made and written at once on other
  // threads, meta.json last.
  PendingFiles files(out);
  std::vector<PictureRecord> records;
  // Each placement's per-class pictures and its headline, for heatmap.png.
  std::vector<std::pair<std::vector<MatrixPicture>, MatrixPicture>> overview;
  for (const PlacementResult& p : r.placements) {
    const std::string name = settings.has_homes() ? std::string(to_string(p.placement)) : "dsm";
    MatrixPicture headline = map_picture(r, p.headline, p.headline_ns, name);
    add_map(files, headline);
    records.push_back(headline.record);
    std::vector<MatrixPicture> classes;
    if (p.per_class.size() > 1)
      for (std::size_t c = 0; c < p.per_class.size(); ++c) {
        classes.push_back(map_picture(r, p.per_class[c].spec, p.per_class_ns[c],
                                      fmt::format("{}-home{}", name, p.per_class[c].spec.home_class)));
        add_map(files, classes.back());
        records.push_back(classes.back().record);
      }
    if (settings.has_homes() && (settings.lines_per_class > 1 || p.per_class.size() > 1)) {
      const MatrixPicture spread = line_spread_picture(r, p, name);
      add_map(files, spread);
      records.push_back(spread.record);
    }
    overview.emplace_back(std::move(classes), std::move(headline));
  }
  add_overview(files, r, overview);
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
  const std::shared_future<nlohmann::json> meta = std::async(std::launch::async, [&r, records] {
                                                    nlohmann::json j = make_meta(r);
                                                    // How each matrix CSV was drawn, for `cumap render --order`.
                                                    j["heatmaps"] = to_json(records);
                                                    return j;
                                                  }).share();
  add_unit_and_summary_files(r, meta, files);
  files.write_all_then_meta([meta] { return meta.get(); });
}

}  // namespace cumap
