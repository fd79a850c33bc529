// `cumap render MATRIX.csv -o OUT.png`: a heatmap drawn again from a matrix CSV.
#include <memory>

#include <fmt/format.h>

#include "cli/option_binding.hpp"
#include "cli/option_checks.hpp"
#include "cli/registration.hpp"
#include "core/options.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {
namespace {

constexpr std::size_t kMaxTitleChars = 200;  // one line across the picture

}  // namespace

Registration register_render(CLI::App& app) {
  auto render = std::make_shared<RenderCommand>();
  RenderRequest& r = render->request;
  CLI::App* sub = app.add_subcommand("render", "re-draw a heatmap PNG from a matrix CSV");
  sub->add_option("csv", r.csv, "matrix CSV written by cumap")->required();
  sub->add_option("-o,--output", r.png, "PNG to write")->required();
  CLI::Option* order = sub->add_option("--order", r.order,
                                       "a run's output directory or its meta.json (drawn as the run drew it), or a "
                                       "topology JSON giving unit order and groups");
  sub->add_option("--scale", r.scale, "auto or MIN:MAX in ns")->capture_default_str();
  sub->add_option("--title", r.title, "title line (at most 200 characters)");
  sub->add_flag("--force", r.force,
                "draw with --order of a run of another chip (another model or serial than the run beside the CSV) "
                "or of another number of units, which is refused without it");
  add_word_option(*sub, "--colormap", r.colormap, {kColormapNames.begin(), kColormapNames.end()},
                  "viridis, magma or cividis (default: the run's, with --order DIR, else viridis)");
  return {[sub] { return sub->parsed(); },
          [&app, render, order](const std::string&) -> Command {
            reject_top_level_options(app, "render", {});
            const RenderRequest& r = render->request;
            // Here the path's text; render_csv_file checks it against the file system.
            check_output_path("-o", r.png);
            if (order->count() > 0 && r.order->empty()) throw UsageError("--order must name a file or directory");
            if (char_count(r.title) > kMaxTitleChars)
              throw UsageError(fmt::format("--title is too long ({} characters; at most {})", char_count(r.title),
                                           kMaxTitleChars));
            return *render;
          }};
}

}  // namespace cumap::cli
