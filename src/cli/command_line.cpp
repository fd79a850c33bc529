#include "cli/command_line.hpp"

#include <sstream>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/option_binding.hpp"
#include "cli/option_checks.hpp"
#include "cli/registration.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {
namespace {

std::string join_argv(int argc, char** argv) {
  std::ostringstream s;
  for (int i = 0; i < argc; ++i) s << (i ? " " : "") << argv[i];
  return s.str();
}

}  // namespace

Command parse_command_line(int argc, char** argv) {
  CLI::App app{"cumap: maps cross-compute-unit synchronization latency (CAS ping-pong) on GPUs and CPUs", "cumap"};
  app.require_subcommand(0, 1);
  // --help lists options and subcommands in the order they are registered.
  const Registration version = register_version(app);
  const MapRegistration map = register_map(app);
  const Registration list_devices = register_list_devices(app, map.typed_options);
  const std::vector<Registration> others{register_render(app),  register_topology(app),
                                         register_homes(app),   register_check_coherence(app),
                                         register_summary(app), register_compare(app),
                                         register_query(app),       register_barrier(app),
                                         register_contention(app), list_devices};
  decimal_numbers_only(app);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) decimal_numbers_only(*sub);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return Answered{app.exit(e)};
  } catch (const CLI::ParseError& e) {
    throw UsageError(one_line(e.what()) + " (see cumap --help)");
  }
  if (version.chosen()) return version.finish(join_argv(argc, argv));
  // Whichever the command line chose; the map when it chose none of the others.
  for (const Registration& command : others)
    if (command.chosen()) return command.finish(join_argv(argc, argv));
  return map.finish(join_argv(argc, argv));
}

}  // namespace cumap::cli
