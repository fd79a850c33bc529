#include "cumap/error.hpp"
#include "cumap/output_directory.hpp"
#include "cumap/outputs.hpp"
#include "cumap/printable.hpp"
#include "cumap/render.hpp"
#include "render/render_request.hpp"

namespace cumap {

void render_csv_file(const RenderRequest& request) {
  // Every check comes before the PNG is written: bad input leaves no file.
  // The output path first, so that a typo there costs no parsing.
  check_output_file(request.png);
  HeatmapStyle style;
  style.scale = render::parse_scale_spec(request.scale);
  style.colormap = request.colormap;
  style.title = request.title.empty() ? request.csv.filename().string() : request.title;

  if (!std::filesystem::is_regular_file(request.csv))
    throw UsageError("cannot read matrix CSV " + printable_excerpt(request.csv.string(), 120) + ": no such file");
  ValueMatrix matrix = read_matrix_csv(request.csv);
  if (request.order) {
    const Topology topology = render::read_order_file(*request.order, matrix.units);
    matrix = matrix.reordered(topology_order(topology, matrix.units));
    style.groups = restrict_topology(topology, matrix.units);
  }

  const Image image = render_heatmap({HeatmapPanel{"", std::move(matrix)}}, style);
  write_png(request.png, image);
}

}  // namespace cumap
