#include "report/render_file.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <unordered_set>

#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "report/output_directory.hpp"
#include "report/atomic_file.hpp"
#include "report/matrix_csv.hpp"

namespace cumap {

namespace {

bool parse_double(const std::string& text, double& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && std::isfinite(value);
}

}  // namespace

std::optional<std::pair<double, double>> parse_scale_spec(const std::string& spec) {
  if (spec == "auto") return std::nullopt;
  const auto bad = [&](const std::string& why) {
    return UsageError("--scale '" + printable_excerpt(spec) + "': " + why + " (use auto or MIN:MAX, e.g. 100:900)");
  };
  const auto colon = spec.find(':');
  if (colon == std::string::npos) throw bad("no ':'");
  double lo = 0.0, hi = 0.0;
  if (!parse_double(spec.substr(0, colon), lo) || !parse_double(spec.substr(colon + 1), hi))
    throw bad("MIN and MAX must be finite numbers");
  if (!(lo < hi)) throw bad("MIN must be less than MAX");
  return std::pair{lo, hi};
}

Topology read_order_file(const std::filesystem::path& path, const std::vector<int>& units) {
  const std::string shown = printable_excerpt(path.string(), 120);
  std::error_code ec;
  // A directory opens as a stream on Linux and fails only when read.
  if (std::filesystem::is_directory(path, ec)) throw UsageError("cannot read order file " + shown + ": it is a directory");
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read order file " + shown);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (in.bad()) throw UsageError("cannot read order file " + shown);
  if (j.is_discarded()) throw UsageError("order file " + shown + " is not valid JSON");
  Topology topology;
  try {
    topology = topology_from_json(j);
  } catch (const UsageError& e) {
    throw UsageError("order file " + shown + ": " + e.what());
  }
  const std::unordered_set<int> present(units.begin(), units.end());
  for (const auto& group : topology.groups)
    for (int unit : group.units)
      if (!present.contains(unit))
        throw UsageError("order file " + shown + " names unit " + std::to_string(unit) + " (group '" +
                         printable_excerpt(group.name) + "'), which is not in the matrix");
  return topology;
}



void render_csv_file(const RenderRequest& request) {
  // Every check comes before the PNG is written: bad input leaves no file.
  // The output path first, so that a typo there costs no parsing.
  check_output_file(request.png);
  HeatmapStyle style;
  style.scale = parse_scale_spec(request.scale);
  style.colormap = request.colormap;
  style.title = request.title.empty() ? request.csv.filename().string() : request.title;

  if (!std::filesystem::is_regular_file(request.csv))
    throw UsageError("cannot read matrix CSV " + printable_excerpt(request.csv.string(), 120) + ": no such file");
  ValueMatrix matrix = read_matrix_csv(request.csv);
  if (request.order) {
    const Topology topology = read_order_file(*request.order, matrix.units);
    matrix = matrix.reordered(topology_order(topology, matrix.units));
    style.groups = restrict_topology(topology, matrix.units);
  }

  const Image image = render_heatmap({HeatmapPanel{"", std::move(matrix)}}, style);
  write_png(request.png, image);
}

void write_png(const std::filesystem::path& path, const Image& image) {
  // Encoding to memory first means a failed encode never leaves a file, and
  // write_file_atomic makes the rename the only moment the PNG appears.
  write_file_atomic(path, encode_png(image));
}

}  // namespace cumap
