#include "cli/map_outputs.hpp"

#include <fmt/format.h>

#include "cumap/outputs.hpp"
#include "cumap/render.hpp"
#include "cumap/stats.hpp"

namespace cumap::cli {
namespace {

std::string panel_title(Placement placement, const Summary& cells) {
  return fmt::format("{} (median {:.0f} ns)", to_string(placement), cells.median);
}

std::optional<Topology> groups_for_display(const MapReport& r) {
  if (r.topology.groups.size() < 2) return std::nullopt;
  return r.topology;
}

}  // namespace

std::string heatmap_title(const DeviceInfo& device, Placement placement, const Summary& cells) {
  return fmt::format("{} - {} - one-way median {:.1f} ns (range {:.1f}-{:.1f})", device.name, to_string(placement),
                     cells.median, cells.min, cells.max);
}

void write_map_outputs(const Options& options, const MapReport& r) {
  const auto& dir = options.out_dir;
  HeatmapStyle style;
  style.colormap = options.colormap;
  style.groups = groups_for_display(r);

  std::vector<HeatmapPanel> panels;
  for (const LatencyMap& map : r.maps) {
    const ValueMatrix shown = map.oneway_ns().reordered(r.display_order);
    const Summary cells = summarize(shown.values);  // the diagonal and missing cells (NaN) are ignored
    const std::string name(to_string(map.placement));
    write_file_atomic(dir / fmt::format("matrix-{}.csv", name), matrix_csv(shown));
    if (map.pairs.size() > map.units.size() * (map.units.size() - 1) / (map.ordered ? 1 : 2))
      write_file_atomic(dir / fmt::format("copy-spread-{}.csv", name),
                        matrix_csv(map.copy_spread_ns().reordered(r.display_order)));
    style.title = heatmap_title(r.device, map.placement, cells);
    write_png(dir / fmt::format("heatmap-{}.png", name), render_heatmap({{name, shown}}, style));
    panels.push_back({panel_title(map.placement, cells), shown});
  }
  if (panels.size() > 1) {
    style.title = fmt::format("{} - one-way CAS ping-pong latency, {} {}s", r.device.name, r.display_order.size(),
                              r.device.unit_name);
    write_png(dir / "heatmap.png", render_heatmap(panels, style));
  }
  write_file_atomic(dir / "pairs.csv", pairs_csv(r.maps));
  write_file_atomic(dir / "meta.json", r.meta.dump(2) + "\n");
}

}  // namespace cumap::cli
