#pragma once
// Each command registers its own options with CLI11, in the file of its
// options, and says after parsing whether the command line chose it and
// what to run; parse_command_line (command_line.cpp) only dispatches.
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/command_line.hpp"

namespace cumap::cli {

struct Registration {
  std::function<bool()> chosen;
  // What CLI11 cannot check, then the command to run; `command_line` is
  // argv as typed, which some commands record.
  std::function<Command(const std::string& command_line)> finish;
};

// --version, on the top-level app: before every other option, as --help
// lists it. Chosen, it prints the version; with anything else it is bad input.
Registration register_version(CLI::App& app);

// The map is the top-level app's own command, chosen when nothing else is.
struct MapRegistration {
  std::function<Command(const std::string& command_line)> finish;
  // The map's options as typed and converted, unchecked: --list-devices
  // takes --device and --unit from them.
  std::function<Options()> typed_options;
};
MapRegistration register_map(CLI::App& app);
Registration register_list_devices(CLI::App& app, std::function<Options()> map_options);

// Subcommands, each added to `app` (whose options they refuse).
Registration register_render(CLI::App& app);
Registration register_topology(CLI::App& app);
Registration register_homes(CLI::App& app);
Registration register_check_coherence(CLI::App& app);
Registration register_summary(CLI::App& app);
Registration register_compare(CLI::App& app);
Registration register_query(CLI::App& app);
Registration register_barrier(CLI::App& app);
Registration register_contention(CLI::App& app);

}  // namespace cumap::cli
