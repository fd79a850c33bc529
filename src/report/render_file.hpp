#pragma once
// `cumap render`: a matrix CSV drawn as a heatmap PNG, and the file-level
// work behind it (reading the order file, writing the PNG whole).
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/matrix.hpp"
#include "core/topology.hpp"
#include "cumap/render.hpp"

namespace cumap {

// `cumap render`: re-draws a matrix CSV as a PNG. `scale` is "auto" or
// "MIN:MAX"; `order` a topology JSON file (see topology.hpp). Throws
// UsageError on bad input and writes nothing then.
struct RenderRequest {
  std::filesystem::path csv;
  std::filesystem::path png;
  std::optional<std::filesystem::path> order;
  std::string scale = "auto";
  std::string title;
  std::string colormap = "viridis";
};
void render_csv_file(const RenderRequest& request);

// Encodes `image` and writes it whole (write_file_atomic).
void write_png(const std::filesystem::path& path, const Image& image);

// "auto" -> nullopt; "MIN:MAX" with finite MIN < MAX -> the pair. Else UsageError.
std::optional<std::pair<double, double>> parse_scale_spec(const std::string& spec);

// Reads a topology JSON file and checks that every unit it names is in
// `units`; UsageError naming the file otherwise.
Topology read_order_file(const std::filesystem::path& path, const std::vector<int>& units);

}  // namespace cumap
