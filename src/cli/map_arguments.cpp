// The map's options: the top-level command's own (`cumap [options]`).
#include <memory>

#include <fmt/format.h>

#include "cli/option_binding.hpp"
#include "cli/option_checks.hpp"
#include "cli/registration.hpp"
#include "core/printable.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {
namespace {

// --resume DIR: a directory named (an unset shell variable is not the
// current directory), and the output directory is DIR itself.
void check_resume_flags(const Options& o, const CLI::App& app) {
  const std::string& dir = o.resume_dir.native();
  if (dir.empty()) throw UsageError("--resume must name the output directory of an earlier run (it is empty)");
  if (has_control_character(dir))
    throw UsageError(fmt::format("--resume '{}': a path with control characters is not accepted",
                                 printable_excerpt(dir)));
  if (!given(app, "--out")) return;
  // "D", "D/" and "./D" are one directory; so are two names of an existing one.
  const auto normal = [](const std::filesystem::path& p) { return (p / "").lexically_normal(); };
  std::error_code ec;
  const bool same =
      normal(o.out_dir) == normal(o.resume_dir) || std::filesystem::equivalent(o.out_dir, o.resume_dir, ec);
  if (!same)
    throw UsageError(fmt::format("--out '{}' with --resume '{}': a resumed run completes the files in its --resume "
                                 "directory; leave out --out",
                                 printable_excerpt(o.out_dir.native()), printable_excerpt(dir)));
}

Command finish_map(const CLI::App& app, CommandParse<MapCommand>& parse, const std::string& command_line) {
  parse.bound->apply();
  MapCommand& map = parse.command;
  check_device_options(map.options, app);
  check_home_flags(app, map.options, "map every unit");
  const bool resuming = given(app, "--resume");
  // Resuming, the options not typed are the earlier run's (resumed_options):
  // what depends on them is checked there.
  if (given(app, "--flag-on") && !given(app, "--devices") && !resuming)
    throw UsageError("--flag-on chooses whose memory holds the flags of pairs across GPUs: it needs --devices");
  if (resuming) {
    check_resume_flags(map.options, app);
    map.typed = parse.bound->typed_compared();
  } else {
    validate_options(map.options);
  }
  map.command_line = command_line;
  return map;
}

}  // namespace

MapRegistration register_map(CLI::App& app) {
  auto parse = std::make_shared<CommandParse<MapCommand>>();
  parse->bound = std::make_unique<BoundOptions>(app, map_option_rows(), kMapCommand, parse->command.options);
  return {[&app, parse](const std::string& command_line) { return finish_map(app, *parse, command_line); },
          [parse] {
            parse->bound->apply();
            return parse->command.options;
          }};
}

}  // namespace cumap::cli
