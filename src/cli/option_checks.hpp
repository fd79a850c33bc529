#pragma once
// The checks of typed options that CLI11 cannot make: what one option's
// range does not say (paths, what a backend would ignore, options that
// need others), and options given where they do not apply.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "cumap/options.hpp"

namespace cumap::cli {

// Whether the user typed `flag` (one of its names) on `app`.
bool given(const CLI::App& app, const std::string& flag);

// A path the user names for output: no line breaks or other control
// characters (they end up in file listings, logs and meta.json), and no
// component longer than any Linux file system allows.
void check_output_path(std::string_view flag, const std::filesystem::path& path);
bool has_control_character(std::string_view s);
// Code points, not bytes: a title's length as its reader counts it.
std::size_t char_count(std::string_view s);

// CLI11's messages sometimes span lines and quote what was typed: one line,
// the typed text made printable.
std::string one_line(const std::string& s);

// Options of the top-level command (the map's) given together with a
// subcommand or --list-devices: they would be ignored, so they are an error.
void reject_top_level_options(const CLI::App& app, const std::string& what,
                              const std::vector<const CLI::Option*>& allowed);

// Device options (typed on `app`) that the chosen backend would silently ignore.
void check_device_options(const Options& o, const CLI::App& app);

// --units given with nothing in it would silently mean "every unit"
// (`leave_out_means` says what leaving it out does); the same for
// --devices. --device and --devices name the GPUs twice.
void check_home_flags(const CLI::App& app, const Options& o, const std::string& leave_out_means);

// Every range of the map's option table, and what needs two options at once.
void validate_options(const Options& options);

}  // namespace cumap::cli
