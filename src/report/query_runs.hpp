#pragma once
// `cumap query DIR --units LIST` over a run directory: the units checked
// against the run, its maps and cases read (saved_run.hpp), the answer
// computed (core/unit_query.hpp) and written as md, csv or json.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/unit_query.hpp"
#include "report/saved_run.hpp"

namespace cumap {

struct QueryAnswer {
  std::string dir;  // as given
  RunHeader run;
  UnitPlaces places;
  std::optional<PairAnswer> pair;  // two units
  std::optional<SetAnswer> set;    // three or more, or a barrier or contention run's directory
  // Where the cases came from, by command: DIR itself, DIR/barrier or
  // DIR/contention, and whether that sweep ran on the map's chip.
  struct CaseSource {
    std::string dir;
    bool same_chip = true;
    std::string chip;  // the sweep's device and serial, where it is another chip
  };
  std::map<std::string, CaseSource> case_sources;
  bool pairs_csv = false;  // the run kept pairs.csv: p05-p95 and line spread per class
};

// `units` in parse_unit_list's syntax ("12,87", "0-15"; across GPUs
// "g0.12,g1.87"). UsageError, one line, for units not in the run, fewer
// than two, or a pair asked of a run without a map.
QueryAnswer query_saved_run(const SavedRun& run, const std::string& units);

std::string query_markdown(const QueryAnswer& answer);
// Two units:  placement,home_class,where,median_ns,p05_ns,p95_ns,line_spread_ns,lines
//   (home_class "all" for the class-averaged map).
// A set:      section,placement,home_class,what,near_units,pairs,mean_ns,median_ns,max_ns
//   section "flag" (a flag the set shares: mean, median and largest one-way
//   over its pairs), "barrier" or "contention" (a case at the set's k: what
//   and counter home, its ns per barrier or per operation as mean_ns, the
//   episodes' median, its counter's class as home_class, near_units the
//   case's units by side, pairs "these units", "like these" or empty).
std::string query_csv(const QueryAnswer& answer);
nlohmann::json query_json(const QueryAnswer& answer);

}  // namespace cumap
