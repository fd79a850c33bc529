#include "report/render_file.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>
#include <system_error>
#include <tuple>

#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "publish/atomic_file.hpp"
#include "publish/output_directory.hpp"
#include "report/heatmap_png.hpp"
#include "report/read/matrix_csv.hpp"
#include "report/read/json_fields.hpp"
#include "report/read/meta_json.hpp"
#include "report/order_file.hpp"
#include "report/summary_json.hpp"

namespace cumap {

namespace fs = std::filesystem;

namespace {

bool parse_double(const std::string& text, double& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && std::isfinite(value);
}

std::string shown(const fs::path& path) { return printable_excerpt(path.string(), 120); }

// What a path that is not a regular file is, for a message.
std::string kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory: return "a directory";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    case fs::file_type::fifo: return "a named pipe";
    case fs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

// The matrix CSV must be a regular file: a directory or /dev/null is named
// as what it is, not as missing.
void check_matrix_file(const fs::path& csv) {
  std::error_code ec;
  const fs::file_status status = fs::status(csv, ec);
  if (status.type() == fs::file_type::not_found)
    throw UsageError("cannot read matrix CSV " + shown(csv) + ": no such file");
  if (ec) throw UsageError("cannot read matrix CSV " + shown(csv) + ": " + ec.message());
  if (status.type() == fs::file_type::directory)
    throw UsageError("cannot read matrix CSV " + shown(csv) +
                     ": it is a directory (give one of its matrix CSVs, and the directory as --order)");
  if (status.type() != fs::file_type::regular)
    throw UsageError("cannot read matrix CSV " + shown(csv) + ": it is " + kind_of(status.type()) +
                     ", not a file written by cumap");
}

// `cumap render` writes PNG only, and never over one of its inputs (the CSV
// itself, by any path or link): both are refused before any work.
void check_png_output(const RenderRequest& request) {
  std::string extension = request.png.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension != ".png")
    throw UsageError("-o " + shown(request.png) + ": cumap render writes PNG only; name the output *.png");
  std::error_code ec;
  const auto same = [&](const fs::path& input) { return fs::equivalent(request.png, input, ec) && !ec; };
  if (same(request.csv))
    throw UsageError("-o " + shown(request.png) + " is the input matrix CSV " + shown(request.csv) +
                     "; writing the PNG would destroy it");
  if (request.order && same(*request.order))
    throw UsageError("-o " + shown(request.png) + " is the --order file; writing the PNG would destroy it");
  check_output_file(request.png);
}

std::string serials_words(const RunHeader& h) {
  std::string s;
  for (const std::string& one : h.serials) s += (s.empty() ? "" : ", ") + one;
  return s;
}

// --order of a run's meta.json draws the matrix in that run's order: of
// another chip (the run beside the CSV names another model or serial) or of
// another set of units, the labels would name other units than the cells'.
void check_order_chip(const RenderRequest& request, const DisplaySpec& display, std::size_t matrix_units) {
  if (request.force || !display.run) return;
  const RunHeader& order = *display.run;
  const std::string refuse = "; give --force to draw it anyway";
  if (!order.units.empty() && order.units.size() != matrix_units)
    throw UsageError(fmt::format("render: --order {} is a run of {} units and {} has {}: its order is another map's{}",
                                 shown(*request.order), order.units.size(), shown(request.csv), matrix_units, refuse));
  std::error_code ec;
  const fs::path beside = request.csv.parent_path().empty() ? fs::path(".") : request.csv.parent_path();
  if (!fs::is_regular_file(beside / "meta.json", ec)) return;  // a CSV on its own: its chip is not known
  OutputMeta read;
  try {
    read = read_output_meta(beside);
  } catch (const UsageError&) {
    return;  // not a run's set: its chip is not known
  }
  if (json_fields::text(read.meta, "tool") != "cumap") return;
  const RunHeader matrix = run_header_from_json(read.meta);
  const std::string ids = fmt::format("; the {0} ids of one chip are not the {0} ids of another", order.unit_word());
  if (!order.device_name.empty() && !matrix.device_name.empty() && order.device_name != matrix.device_name)
    throw UsageError(fmt::format("render: --order {} is a run on {} and {} one on {}{}{}", shown(*request.order),
                                 order.device_name, shown(request.csv), matrix.device_name, ids, refuse));
  const std::string a = serials_words(order), b = serials_words(matrix);
  if (!a.empty() && !b.empty() && a != b)
    throw UsageError(fmt::format("render: --order {} is a run on serial {} and {} one on serial {}{}{}",
                                 shown(*request.order), a, shown(request.csv), b, ids, refuse));
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

std::string value_label_for(const fs::path& csv) {
  return csv.filename().string().starts_with("line-spread-") ? "line spread (ns)" : "one-way latency (ns)";
}

RenderPlan plan_render(const RenderRequest& request) {
  HeatmapStyle style;
  style.scale = parse_scale_spec(request.scale);
  check_matrix_file(request.csv);
  ValueMatrix matrix = read_matrix_csv(request.csv);
  const std::string csv_name = request.csv.filename().string();

  DisplaySpec display;
  if (request.order) display = read_order(*request.order, matrix.units, csv_name);
  check_order_chip(request, display, matrix.units.size());
  if (!display.order.empty()) matrix = matrix.reordered(display.order);
  style.groups = display.groups;
  std::string panel_title;
  if (const auto& picture = display.picture) {
    // Drawn as the run drew it.
    style.title = picture->title;
    panel_title = picture->panel_title;
    style.value_label = picture->value_label;
    style.row_title = picture->row_title;
    style.column_title = picture->column_title;
    style.colormap = picture->colormap;
    // The run's fixed range (a headline on its class maps' scale) unless MIN:MAX is given.
    if (!style.scale) style.scale = picture->scale;
  } else {
    style.title = csv_name;
    style.value_label = value_label_for(request.csv);
    std::tie(style.row_title, style.column_title) =
        map_axis_titles(display.unit_name, display.ordered, display.order_words);
  }
  if (!request.title.empty()) style.title = request.title;
  if (!request.colormap.empty()) style.colormap = request.colormap;
  if (style.colormap.empty()) style.colormap = "viridis";
  return {HeatmapPanel{panel_title, std::move(matrix)}, std::move(style)};
}

void render_csv_file(const RenderRequest& request) {
  // Every check comes before the PNG is written: bad input leaves no file.
  // The output path first, so that a typo there costs no parsing.
  check_png_output(request);
  RenderPlan plan = plan_render(request);
  const Image image = render_heatmap({std::move(plan.panel)}, plan.style);
  write_png(request.png, image);
}

void write_png(const fs::path& path, const Image& image) {
  // Encoding to memory first means a failed encode never leaves a file, and
  // write_file_atomic makes the rename the only moment the PNG appears.
  write_file_atomic(path, encode_png(image));
}

}  // namespace cumap
