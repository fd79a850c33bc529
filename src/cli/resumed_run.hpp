#pragma once
// --resume DIR: what an interrupted (or timed-out) run already measured, and
// the checks that make continuing it honest.
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/result.hpp"
#include "cumap/options.hpp"
#include "report/pairs_csv.hpp"

namespace cumap::cli {

struct ResumedRun {
  nlohmann::json meta;
  nlohmann::json homes;
  std::vector<PlacedPairStats> pairs;

  // The pairs of one placement that completed; timed-out ones are measured again.
  std::vector<PairStats> completed(Placement placement) const;
};

// Reads DIR's meta.json, homes.json and pairs.csv. UsageError (exit 2) when a
// file is missing or malformed, or when an option that changes what is
// measured differs from the earlier run's, naming the option.
ResumedRun load_resumed_run(const Options& options);

// The flag lines must have the same home classes as in the earlier run (the
// resumed pairs are labelled by them); UsageError otherwise.
void check_same_homes(const ResumedRun& run, const RunHomes& homes);

}  // namespace cumap::cli
