#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <variant>

#include "core/sync_options.hpp"
#include "cumap/options.hpp"
#include "render/render.hpp"
#include "report/render_file.hpp"

namespace cumap::cli {

struct MapCommand {
  Options options;
  std::string command_line;  // as typed, for meta.json
  // With --resume: the options the user typed that meta.json records, by
  // flag, with the key it records each under ("--iters" -> "iters"). They
  // must agree with the earlier run's; the others are taken from it.
  std::map<std::string, std::string> typed;
};
// `cumap homes`: home discovery alone (the first step of every map), with its files.
struct HomesCommand {
  Options options;
  std::string command_line;  // as typed, for meta.json
};
// `cumap barrier` and `cumap contention`: what a barrier of k units costs
// and where its counter should live; what an atomic costs when k units hit
// one line.
struct SyncCommand {
  SyncOptions options;
  std::string command_line;  // as typed, for meta.json
};
struct RenderCommand {
  RenderRequest request;
};
struct TopologyCommand {
  Options options;
  std::optional<std::filesystem::path> json_out;
};
struct CoherenceCommand {
  Options options;
  std::optional<int> reader;  // default: the first unit
  std::optional<int> writer;  // default: the last unit
  double window_ms = 1.0;
  std::optional<std::filesystem::path> json_out;
};
// --list-devices: every device of every built backend, and for CUDA whether
// each two GPUs can be mapped together; with --device, that one only.
struct ListDevicesCommand {
  Options options;
  bool only_device = false;
};
// `cumap summary DIR`: a map's meta.json in a page (md), its structure table
// tidy (csv), or the summary's fields (json), on stdout.
struct SummaryCommand {
  std::filesystem::path dir;  // an output directory, or a meta.json itself
  std::string format = "md";  // md, csv or json
  std::string file;           // empty, or summary.md, units.csv, block-means.csv: that file of the set
};
// `cumap compare A B`: two finished runs side by side (report/compare_runs.hpp),
// on stdout, and with --out the comparison's files.
struct CompareCommand {
  std::filesystem::path a;
  std::filesystem::path b;
  std::string format = "md";  // md, csv or json
  double threshold = 0.03;    // alike: no compared median moved by more than this share of A's
  std::optional<std::filesystem::path> out;
};
// `cumap query DIR --units LIST`: what the run says about a pair or a set of
// units (report/query_runs.hpp), on stdout.
struct QueryCommand {
  std::filesystem::path dir;
  std::string units;
  std::string format = "md";  // md, csv or json
};
// --help or --version was answered; exit with this code.
struct Answered {
  int exit_code;
};

using Command =
    std::variant<MapCommand, HomesCommand, SyncCommand, RenderCommand, TopologyCommand, CoherenceCommand,
                 ListDevicesCommand, SummaryCommand, CompareCommand, QueryCommand, Answered>;

// Parses argv with CLI11 (each command registers its options: registration.hpp).
// Throws UsageError with a one-line message on any unknown flag or invalid
// value; prints help/version itself.
Command parse_command_line(int argc, char** argv);

}  // namespace cumap::cli
