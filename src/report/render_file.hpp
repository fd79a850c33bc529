#pragma once
// `cumap render`: a matrix CSV drawn as a heatmap PNG, and the file-level
// work behind it (reading the order file, writing the PNG whole); and the
// record of how a run drew each matrix, which lets render draw it again.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/matrix.hpp"
#include "core/topology.hpp"
#include "render/render.hpp"

namespace cumap {

// `cumap render`: re-draws a matrix CSV as a PNG. `scale` is "auto" or
// "MIN:MAX"; `order` a run's output directory, its meta.json, or a topology
// JSON file (see read_order). Throws UsageError on bad input and writes
// nothing then.
struct RenderRequest {
  std::filesystem::path csv;
  std::filesystem::path png;
  std::optional<std::filesystem::path> order;
  std::string scale = "auto";
  std::string title;     // empty: the run's title for this CSV (from --order's meta.json), else the file name
  std::string colormap;  // empty: the run's colormap (from --order's meta.json), else viridis
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

// How a run drew one of its matrix CSVs. meta.json keeps one per CSV under
// "heatmaps", so that `cumap render CSV --order DIR` draws the picture the
// run drew (the same PNG, byte for byte).
struct PictureRecord {
  std::string matrix;   // the CSV's file name, e.g. "matrix-same-line-home0.csv"
  std::string heatmap;  // the PNG's file name; empty where the run drew none (a line spread)
  std::string title;
  std::string panel_title;
  std::string value_label;
  std::string row_title;
  std::string column_title;
  std::string colormap;
};
nlohmann::json to_json(const std::vector<PictureRecord>& pictures);

// What the colorbar of a matrix CSV says, from the name the run gave it:
// "line spread (ns)" for line-spread-*.csv, else "one-way latency (ns)".
std::string value_label_for(const std::filesystem::path& csv);
// The axis titles of a map of `unit_name`s: "SM a" / "SM b", or with
// --ordered "pinging SM a" / "answering SM b"; `order` says how the units
// are sorted ("side, then group") and is added in parentheses.
std::pair<std::string, std::string> map_axis_titles(const std::string& unit_name, bool ordered,
                                                    const std::string& order);

// What --order says about drawing a matrix of `units`.
struct DisplaySpec {
  std::vector<int> order;          // every unit of the matrix, in display order
  std::optional<Topology> groups;  // separators and names; none with fewer than two groups
  std::optional<PictureRecord> picture;  // a run's meta.json: how the run drew this CSV
  std::string unit_name;           // a run's meta.json: "SM", "CU", "cpu"; else empty
  bool ordered = false;            // a run's meta.json: measured with --ordered
  std::string order_words;         // "side, then group", "group", or empty
};
// Reads --order `path`: a run's output directory or its meta.json (the
// run's display order and groups; groups rebuilt from its topology and
// sides where an older meta.json lacks "display_groups"), or a topology JSON
// (`cumap topology --json`, or written by hand), whose "sides", where it has
// two or more, come before its groups as in a run. `csv_name` picks the
// run's picture record. UsageError naming the file if it is neither, or
// names a unit that is not in `units`.
DisplaySpec read_order(const std::filesystem::path& path, const std::vector<int>& units, const std::string& csv_name);

}  // namespace cumap
