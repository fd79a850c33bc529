#pragma once
// An option table's rows registered with CLI11 for one command, and the
// values CLI11 cannot bind directly converted once it has parsed. Debian's
// CLI11 2.1 cannot bind enums under C++20: enum options are read as words
// and converted by their name tables, lowercase only, all alike ("CPU" is
// as unknown as "VIRIDIS").
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/option_table.hpp"

namespace cumap::cli {

class BoundOptions {
 public:
  // Registers on `app`, in table order, every row of `rows` in `groups`,
  // bound to `options` (and to `sync`, for rows of SyncOptions members).
  // The bound objects must outlive the parse; so must this.
  BoundOptions(CLI::App& app, std::span<const OptionRow> rows, OptionGroups groups, Options& options,
               SyncOptions* sync = nullptr);
  BoundOptions(const BoundOptions&) = delete;
  BoundOptions& operator=(const BoundOptions&) = delete;

  // Once CLI11 has parsed: converts what was read as words (enums, byte
  // offsets, lists of names, --k, the placements) and refuses a typed value
  // that stands for "not given". UsageError naming the flag. Once; later
  // calls do nothing.
  void apply();

  // The options the user typed that --resume compares, by flag, with the
  // key meta.json records each under ("--iters" -> "iters").
  std::map<std::string, std::string> typed_compared() const;

 private:
  struct Bound {
    const OptionRow* row;
    CLI::Option* option;
  };
  template <typename Owner, typename T>
  T& target(const Member<Owner, T>& member);
  template <typename Owner, typename T>
  CLI::Option* bind(const OptionRow& row, const Member<Owner, T>& member);
  CLI::Option* bind(const OptionRow& row, const PlacementFlag& flag);
  void place_flags();
  void refuse_typed_unset(const Bound& b);

  CLI::App& app_;
  Options& options_;
  SyncOptions* sync_;
  std::vector<Bound> bound_;
  std::deque<std::string> words_;                // enum and other options read as a word
  std::deque<std::vector<std::string>> lists_;   // lists of names
  std::map<Placement, bool> placement_flags_;    // --same-line, --split-line, --cross-home
  std::vector<std::function<void()>> conversions_;
  bool applied_ = false;
};

// What one subcommand's registration keeps until CLI11 has parsed: the
// command it fills and its options bound to it.
template <typename Command>
struct CommandParse {
  Command command;
  std::unique_ptr<BoundOptions> bound;
};

// Once CLI11 has parsed `sub`, a subcommand that opens a device: refuses
// the map's options typed on `app` (the top level), converts `sub`'s
// (BoundOptions::apply), then refuses device options the backend they
// choose would ignore.
void apply_device_options(const CLI::App& app, const CLI::App& sub, BoundOptions& bound, const Options& options);

// A text option taking only `words` (listed alphabetically by --help), its
// default shown.
CLI::Option* add_word_option(CLI::App& app, const std::string& name, std::string& target,
                             std::vector<std::string> words, const std::string& help);

// A subcommand that reads a finished run and prints what it says (`cumap
// summary`, `cumap query`): its output directory, required, and --format
// md, csv or json for what it prints.
CLI::App* add_run_reader(CLI::App& app, const std::string& name, const std::string& description,
                         std::filesystem::path& dir, const std::string& dir_help, std::string& format,
                         const std::string& format_help);

// Puts the decimal-only check (option_words.hpp) on every numeric option of
// `app` (CLI11 names their types INT, UINT and FLOAT); the help stays as it is.
void decimal_numbers_only(CLI::App& app);

}  // namespace cumap::cli
