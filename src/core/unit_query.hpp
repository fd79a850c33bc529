#pragma once
// What a finished run says about units a user names (`cumap query`): for
// two units, their pair in each home class and placement and which class is
// cheaper for them; for a set, what a flag they share costs in each class
// (the mean over the set's pairs of that class's map) and, where the run
// has a barrier or contention sweep, its cases at that k. Computed from the
// run's maps and cases as its files hold them (report/saved_run.hpp
// reads them; report/query_runs.hpp writes the answer).
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cumap/latency_map.hpp"
#include "cumap/result.hpp"
#include "cumap/values.hpp"

namespace cumap {

// One placement's maps as the run wrote them.
struct PlacementMaps {
  std::string placement;  // "same-line", "split-line"; "dsm"
  struct ClassMap {
    std::optional<int> home_class;  // none: the run has one class (or none, --via dsm)
    ValueMatrix oneway_ns;
  };
  std::vector<ClassMap> classes;
  std::optional<ValueMatrix> headline_ns;     // every class together, where there are several
  std::optional<ValueMatrix> line_spread_ns;  // of the headline, where the run wrote it
  // pairs.csv's rows of the queried pair in this placement, where the run
  // kept pairs.csv (a GPU run's reference set does not).
  std::vector<PairStats> pair_lines;
};

// Where the units are: each unit's side (the home class it is near) and topology group.
struct UnitPlaces {
  std::map<int, int> side;
  std::map<int, std::string> group;
  int class_count = 1;
  bool across = false;         // ids name their GPU ("g1.5")
  std::string unit_word = "unit";
};

// Two units: one row per placement and class (and the headline).
struct PairAnswer {
  int a = 0;
  int b = 0;
  struct Row {
    std::string placement;
    std::optional<int> home_class;  // none: every class together (or the run's one class)
    bool headline = false;          // the class-averaged map
    std::string where;              // "near side (side 0)", ...; empty without sides
    double median_ns = kNaN;        // the map's cell
    // From pairs.csv where the run kept it: over the pair's lines in this
    // class, the median of each line's p05 and p95 (one-way, less its line
    // correction, as the cell is), the line spread (largest minus smallest
    // line as measured) and the lines.
    double p05_ns = kNaN;
    double p95_ns = kNaN;
    double line_spread_ns = kNaN;   // the headline's from line-spread-*.csv
    std::size_t lines = 0;
  };
  std::vector<Row> rows;
  // Per placement with two or more classes: the cheapest class for the pair
  // and what the next costs.
  struct Cheapest {
    std::string placement;
    int home_class = 0;
    double ns = kNaN;
    int next_class = 0;
    double next_ns = kNaN;
  };
  std::vector<Cheapest> cheapest;
};
PairAnswer query_pair(int a, int b, const std::vector<PlacementMaps>& maps, const UnitPlaces& places);

// A set of units: what a flag they all share costs, per placement and
// class: over the set's pairs of that class's map, the mean (the prediction),
// median and largest one-way value.
struct SetAnswer {
  std::vector<int> units;
  std::map<int, std::size_t> units_per_side;  // side -> units of the set on it
  struct Flag {
    std::string placement;
    std::optional<int> home_class;
    bool headline = false;
    std::size_t near_units = 0;  // units of the set on the side near the class
    std::size_t pairs = 0;       // pairs with a value
    double mean_ns = kNaN;
    double median_ns = kNaN;
    double max_ns = kNaN;
  };
  std::vector<Flag> flag;
  std::vector<PairAnswer::Cheapest> cheapest;  // by mean
  // A barrier's or contention's cases at k = the set's size, where the run
  // holds such a sweep: each with its participants' sides against the set's.
  struct MeasuredCase {
    std::string command;  // "barrier" or "contention"
    SyncCaseResult result;
    std::map<int, std::size_t> units_per_side;
    bool these_units = false;  // its participants are exactly the set (one chip only)
    bool like_these = false;   // as many units on each side as the set
  };
  std::vector<MeasuredCase> cases;
  std::vector<int> case_ks;  // every k the sweeps measured (to say what they have)
};
SetAnswer query_set(const std::vector<int>& units, const std::vector<PlacementMaps>& maps, const UnitPlaces& places);
// Adds the cases of a barrier or contention sweep (`command`) at the set's
// k, their participants' sides from the sweep's own homes (`sweep_places`);
// a sweep of another chip (not `same_chip`) never measured these units,
// whatever its ids say.
void add_cases(SetAnswer& answer, const std::string& command, const std::vector<SyncCaseResult>& cases,
               const UnitPlaces& sweep_places, bool same_chip);

// Where a pair sits relative to the flag's class `home_class`, in
// structure_words()' words with the side; empty where a unit has no side.
std::string pair_where(int a, int b, int home_class, const UnitPlaces& places);

}  // namespace cumap
