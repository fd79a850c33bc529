#pragma once
// The heatmaps of a map run: each matrix CSV's picture (heatmap-*.png),
// heatmap.png (every placement's maps on one colour scale), heatmap-homes.png
// (home discovery's unit x line table), and the record meta.json keeps of
// each matrix picture ("heatmaps"), from which `cumap render --order` draws
// it again byte for byte.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/result.hpp"
#include "render/render.hpp"
#include "report/read/picture_record.hpp"

namespace cumap {

// meta.json's "heatmaps": how the run drew each matrix CSV.
nlohmann::json to_json(const std::vector<PictureRecord>& pictures);

// One matrix CSV of the run and its heatmap: `shown` is the matrix in
// display order as the CSV holds it (3 decimals), which the PNG draws.
struct MatrixPicture {
  PictureRecord record;
  HeatmapStyle style;
  ValueMatrix shown;
  Summary cells;  // of `shown`: the diagonal and missing cells (NaN) are ignored
};
// The map `oneway_ns` of `spec` (a class's, or the headline), named after `stem`
// ("same-line-home0": matrix-same-line-home0.csv, heatmap-same-line-home0.png).
// A cell without a value whose lines in `timed_out_lines` (per class, in
// unit order) timed out is +infinity in the picture (drawn dark gray); the
// CSV writes it empty either way.
MatrixPicture map_picture(const MapResult& result, const MapSpec& spec, const ValueMatrix& oneway_ns,
                          const std::string& stem, const std::vector<const ValueMatrix*>& timed_out_lines = {});
// The headline of a placement with several home classes, drawn on the one
// colour scale of its class maps (report.html's scale for the placement):
// the classes' means are nearly flat, and on a range of their own their few
// percent of line-to-line noise would fill the colormap and read as structure.
// The panel title says so, with how well two line sets reproduce the cells.
void on_class_scale(MatrixPicture& headline, const std::vector<MatrixPicture>& classes, const Agreement& line_sets);
// line-spread-<name>.csv, which has no heatmap of its own.
MatrixPicture line_spread_picture(const MapResult& result, const PlacementResult& placement, const std::string& name);

// heatmap.png, the first picture: each placement's maps by home class and
// its headline, side by side on one colour scale, one row a placement (with
// one class, the placements' maps side by side). None where the run has one
// map: its own picture says it all.
struct OverviewPicture {
  std::vector<HeatmapPanel> panels;
  HeatmapStyle style;
};
std::optional<OverviewPicture> overview_picture(
    const MapResult& result, const std::vector<std::pair<std::vector<MatrixPicture>, MatrixPicture>>& placements);

// heatmap-homes.png (across devices heatmap-homes-g<d>.png, one per device):
// its file name and picture.
std::string homes_heatmap_name(const MapResult& result, const HomesResult& homes);
std::string homes_heatmap_png(const MapResult& result, const HomesResult& homes);
// One device's unit x line table as a picture: rows are its units in display
// order (side, then topology group, then id) with those groups as
// separators; columns are the lines grouped by home class, then by offset,
// labelled with their byte offsets in the flag arena. Cells are ns per
// dependent atomic.
HeatmapTable homes_heatmap_table(const HomesResult& homes, const std::vector<int>& display_order,
                                 const Topology& display_groups, const std::string& unit_name);

// The axis titles of a map of `unit_name`s: "SM a" / "SM b", or with
// --ordered "pinging SM a" / "answering SM b"; `order` says how the units
// are sorted ("side, then group") and is added in parentheses.
std::pair<std::string, std::string> map_axis_titles(const std::string& unit_name, bool ordered,
                                                    const std::string& order);

}  // namespace cumap
