#pragma once
// `cumap render`: a matrix CSV drawn as a heatmap PNG, and the file-level
// work behind it (the order file read by order_file.hpp, the PNG
// written whole).
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "render/render.hpp"

namespace cumap {

// `cumap render`: re-draws a matrix CSV as a PNG. `scale` is "auto" (the
// run's own range where --order's meta.json recorded one, else the cells')
// or "MIN:MAX"; `order` a run's output directory, its meta.json, or a topology
// JSON file (see read_order). Throws UsageError on bad input and writes
// nothing then.
struct RenderRequest {
  std::filesystem::path csv;
  std::filesystem::path png;
  std::optional<std::filesystem::path> order;
  std::string scale = "auto";
  std::string title;     // empty: the run's title for this CSV (from --order's meta.json), else the file name
  std::string colormap;  // empty: the run's colormap (from --order's meta.json), else viridis
  // Draw with the order of a run of another chip (another serial or model,
  // another number of units) than the run beside the CSV: refused without it.
  bool force = false;
};
void render_csv_file(const RenderRequest& request);
// What render_csv_file draws for `request`: the matrix (in display order)
// as one panel, and the style. Checks the input as it does; not the output.
struct RenderPlan {
  HeatmapPanel panel;
  HeatmapStyle style;
};
RenderPlan plan_render(const RenderRequest& request);

// Encodes `image` and writes it whole (write_file_atomic).
void write_png(const std::filesystem::path& path, const Image& image);

// "auto" -> nullopt; "MIN:MAX" with finite MIN < MAX -> the pair. Else UsageError.
std::optional<std::pair<double, double>> parse_scale_spec(const std::string& spec);

// What the colorbar of a matrix CSV says, from the name the run gave it:
// "line spread (ns)" for line-spread-*.csv, else "one-way latency (ns)".
std::string value_label_for(const std::filesystem::path& csv);

}  // namespace cumap
