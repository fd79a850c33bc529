#pragma once
// --resume DIR: what an interrupted (or timed-out) run already measured, and
// the checks that make continuing it honest.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/result.hpp"
#include "cumap/options.hpp"
#include "report/read/pairs_csv.hpp"

namespace cumap::cli {

struct ResumedRun {
  std::filesystem::path dir;
  nlohmann::json meta;
  nlohmann::json homes;
  std::vector<PlacedPairStats> pairs;

  // The pairs of one placement that completed; timed-out ones are measured again.
  std::vector<PairStats> completed(Placement placement) const;
  // Nothing is left to measure: meta.json says the run was not interrupted,
  // every map is complete and no pair timed out, and pairs.csv agrees.
  bool complete() const;
};

// Reads DIR's meta.json, homes.json and pairs.csv. UsageError (exit 2) when a
// file is missing or malformed (parse_pairs_csv checks every field).
ResumedRun load_resumed_run(const std::filesystem::path& dir);

// The options of the continued run: those the earlier run recorded in
// meta.json, where `typed` (flag -> meta.json key, see MapCommand::typed)
// names the options the user gave on this command line, which must agree
// with the recorded ones; out_dir is the resumed directory, quiet and
// max_streams (not recorded) are this command line's. UsageError naming the
// option that differs, or a recorded value this cumap refuses.
Options resumed_options(const ResumedRun& run, const Options& given, const std::map<std::string, std::string>& typed);

// The earlier run's pairs must be pairs this run measures: two of its
// `units` (lower id first unless ordered), one of its placements and passes,
// its path, round trips and at most its samples, flags on the device of one
// of the two units, each pair once; and through memory, a home class the
// earlier homes.json has, the first flag on a line of that class and the
// second on a probed line (a resumed run must find those same classes,
// check_same_homes). UsageError naming the first row that is not, before
// anything is probed or measured.
void check_resumed_pairs(const ResumedRun& run, const std::vector<int>& units, const MapSettings& settings,
                         const Options& options);

// The flag lines must have the same home classes as in the earlier run (the
// resumed pairs are labelled by them); UsageError otherwise.
void check_same_homes(const ResumedRun& run, const RunHomes& homes);

}  // namespace cumap::cli
