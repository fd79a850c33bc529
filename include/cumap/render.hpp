#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cumap/matrix.hpp"
#include "cumap/topology.hpp"

namespace cumap {

struct Rgb {
  std::uint8_t r, g, b;
  bool operator==(const Rgb&) const = default;
};

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  // row-major, 3 bytes a pixel
  Rgb pixel(int x, int y) const;
};

// Perceptually uniform colormaps: "viridis", "magma", "cividis".
// Throws UsageError for other names. t is clamped to [0,1].
Rgb colormap(const std::string& name, double t);
// The gray of the diagonal and of missing or timed-out cells; in no colormap.
inline constexpr Rgb kMissingGray{128, 128, 128};

struct HeatmapPanel {
  std::string title;    // e.g. "same-line"
  ValueMatrix matrix;   // already in display order
};

struct HeatmapStyle {
  std::string title;                                // first line of the picture
  std::string colormap = "viridis";
  std::optional<std::pair<double, double>> scale;   // fixed color range; else min..max of finite cells
  std::optional<Topology> groups;                   // separators and names, in display order
  std::string value_label = "one-way latency (ns)";
};

// Draws the panels side by side on one shared color scale, with axis labels,
// a colorbar and group separators. Throws UsageError if the font is missing.
Image render_heatmap(const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style);

// 8-bit RGB PNG, written atomically.
void write_png(const std::filesystem::path& path, const Image& image);

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

}  // namespace cumap
