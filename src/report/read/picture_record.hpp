#pragma once
// How a run drew one of its matrix CSVs, as meta.json records it
// ("heatmaps"): written by the run (report/heatmap_png.hpp) and read back by
// `cumap render --order` (order_file.hpp) to draw the CSV again byte for byte.
#include <optional>
#include <string>
#include <utility>

namespace cumap {

struct PictureRecord {
  std::string matrix;   // the CSV's file name, e.g. "matrix-same-line-home0.csv"
  std::string heatmap;  // the PNG's file name; empty where the run drew none (a line spread)
  std::string title;
  std::string panel_title;
  std::string value_label;
  std::string row_title;
  std::string column_title;
  std::string colormap;
  // The fixed colour range the run drew it with (a headline on its class
  // maps' scale); none: the cells' own range.
  std::optional<std::pair<double, double>> scale;
};

}  // namespace cumap
