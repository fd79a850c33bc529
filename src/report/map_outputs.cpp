// The files of a map run (map_outputs.hpp): which are made, each on a
// worker thread from the result and its summary, and published as one set.
#include "report/map_outputs.hpp"

#include <future>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/units.hpp"
#include "publish/json_file.hpp"
#include "publish/pending_files.hpp"
#include "report/cluster_barrier_csv.hpp"
#include "report/gpus_csv.hpp"
#include "report/heatmap_png.hpp"
#include "report/homes_outputs.hpp"
#include "report/matrix_csv.hpp"
#include "report/meta_json.hpp"
#include "report/pairs_csv.hpp"
#include "report/report_html.hpp"
#include "report/summary_md.hpp"
#include "report/summary_views.hpp"
#include "report/topology_json.hpp"
#include "report/units_csv.hpp"

namespace cumap {
namespace {

// A matrix CSV and its heatmap, in display order.
void add_map(PendingFiles& files, const MatrixPicture& p) {
  files.add(p.record.matrix, [shown = p.shown] { return matrix_csv(shown); });
  if (!p.record.heatmap.empty())
    files.add(p.record.heatmap, [shown = p.shown, title = p.record.panel_title, style = p.style] {
      return encode_png(render_heatmap({{title, shown}}, style));
    });
}

}  // namespace

RunSummary write_map_outputs(const MapResult& r, OutputSet& out, PairsCsvFile* pairs) {
  const MapSettings& settings = r.settings;
  // Every file only reads `r` and the summary: all are made and written at
  // once on other threads, meta.json last. Those that need only `r` start
  // first, pairs.csv (the largest: 3.3 million rows across two GPUs) before
  // all, and the summary is made while they are written.
  // Before the pending files, which are waited for when an exception
  // leaves: a file still being made reads these.
  std::optional<PairsCsvFile> own_pairs;
  std::optional<RunSummary> made_summary;
  PendingFiles files(out);
  // The summary reads only `r`: it is made while the pictures are laid out
  // and queued below (each takes about 0.1 s across two GPUs).
  std::future<RunSummary> summary_made = std::async(std::launch::async, [&r] { return run_summary(r); });
  if (!pairs && settings.pairs_csv) pairs = &own_pairs.emplace(out, settings.via, settings.placements);
  if (pairs) files.add_job([&r, pairs] { pairs->finish(r); });
  std::vector<PictureRecord> records;
  // Each placement's per-class pictures and its headline, for heatmap.png.
  std::vector<std::pair<std::vector<MatrixPicture>, MatrixPicture>> overview;
  for (const PlacementResult& p : r.placements) {
    const std::string name = settings.has_homes() ? std::string(to_string(p.placement)) : "dsm";
    std::vector<const ValueMatrix*> timed_out;  // per class: the cell's lines that timed out
    for (const ValueMatrix& lines : p.per_class_timed_out_lines) timed_out.push_back(&lines);
    MatrixPicture headline = map_picture(r, p.headline, p.headline_ns, name, timed_out);
    std::vector<MatrixPicture> classes;
    if (p.per_class.size() > 1)
      for (std::size_t c = 0; c < p.per_class.size(); ++c)
        classes.push_back(map_picture(r, p.per_class[c].spec, p.per_class_ns[c],
                                      fmt::format("{}-home{}", name, p.per_class[c].spec.home_class),
                                      {c < timed_out.size() ? timed_out[c] : nullptr}));
    on_class_scale(headline, classes, p.line_sets);
    add_map(files, headline);
    records.push_back(headline.record);
    for (const MatrixPicture& picture : classes) {
      add_map(files, picture);
      records.push_back(picture.record);
    }
    if (settings.has_homes() && (settings.lines_per_class > 1 || p.per_class.size() > 1)) {
      const MatrixPicture spread = line_spread_picture(r, p, name);
      add_map(files, spread);
      records.push_back(spread.record);
    }
    overview.emplace_back(std::move(classes), std::move(headline));
  }
  if (auto picture = overview_picture(r, overview))
    files.add("heatmap.png", [picture = std::move(*picture)] {
      return encode_png(render_heatmap(picture.panels, picture.style));
    });
  for (const PlacementResult& p : r.placements)
    if (!p.stats.cluster_barrier.empty())
      files.add("cluster-barrier.csv", [&p] { return cluster_barrier_csv(p.stats.cluster_barrier); });
  if (settings.has_homes()) add_homes_outputs(r, files);
  files.add("topology.json", [&r] { return json_file_text(topology_file_json(r.topology, r.homes)); });
  // meta.json is made beside the rest, what the result says first, and
  // written last: its presence says the other files are complete.
  std::future<nlohmann::json> meta = std::async(std::launch::async, [&r, records = std::move(records)] {
    nlohmann::json j = make_result_meta(r);
    // How each matrix CSV was drawn, for `cumap render --order`.
    j["heatmaps"] = to_json(records);
    return j;
  });

  const RunSummary& summary = made_summary.emplace(summary_made.get());
  if (ids_span_devices(r.display_order)) files.add("gpus.csv", [&summary] { return gpus_csv(summary); });
  files.add("units.csv", [&r, &summary] { return units_csv(r, summary); });
  if (!summary.blocks.empty()) files.add("block-means.csv", [&summary] { return block_means_csv(summary); });
  files.add("summary.md", [&summary] { return summary_markdown(summary); });
  files.add("report.html", [&r, &summary] { return report_html(r, summary); });
  files.write_all_then_meta([&meta, &summary] {
    nlohmann::json j = meta.get();
    add_summary_meta(j, summary);
    return j;
  });
  return std::move(*made_summary);
}

}  // namespace cumap
