#pragma once
// Two finished runs side by side (`cumap compare A B`), computed from their
// summaries and, for two runs of one chip, their matrices: the settings that
// differ, the structure tables with their differences, sides and groups,
// every matrix file (or every barrier or contention case) cell by cell, and
// whether the two are alike within a threshold. Reading the runs' files is
// report/saved_run.hpp's; writing the comparison report/compare_formats.hpp's.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/run_header.hpp"
#include "core/run_summary.hpp"
#include "core/sync_summary.hpp"
#include "cumap/topology.hpp"
#include "cumap/values.hpp"

namespace cumap {

// Paired values of A and B (cells of two matrices, cases of two sweeps)
// compared: how well they agree and which moved most. Relative differences
// are |B - A| / A.
struct PairedDifference {
  std::size_t count = 0;  // pairs with a value in both
  double pearson_r = kNaN;
  double median_rel_diff = kNaN;
  double p95_rel_diff = kNaN;
  struct Moved {
    std::string what;  // "12-87" for a cell, a case's label
    double a = kNaN;
    double b = kNaN;
    double rel_diff = kNaN;
  };
  std::vector<Moved> most_moved;  // the largest relative differences first; none that did not move
};

// One value of A against one of B, named.
struct LabelledPair {
  std::string what;
  double a = kNaN;
  double b = kNaN;
};
PairedDifference paired_difference(const std::vector<LabelledPair>& pairs, std::size_t most_moved = 5);

// Two matrices cell by cell, B put in A's order; none when their units are
// not the same set. A mirrored (unordered) map's cells count once per pair
// in most_moved, twice in the statistics (as bench_compare always counted them).
std::optional<PairedDifference> compare_matrices(const ValueMatrix& a, const ValueMatrix& b,
                                                 std::size_t most_moved = 5);
// B - A in A's order, NaN where either is missing. The units must be the same set.
ValueMatrix difference_matrix(const ValueMatrix& a, const ValueMatrix& b);

// Whether two runs measured the same chip. A GPU is known by its serial
// (every GPU's, across GPUs), a CPU by its host and model; a CPU run and a
// GPU run do not compare at all.
struct ChipMatch {
  bool comparable = true;  // false: one measured CPU cores, the other a GPU
  bool same = false;
  std::string why;         // where not comparable or not the same: one sentence
};
// `a_host_cores`: A's units are a host's CPU cores (its backend's fact).
ChipMatch match_chips(const RunHeader& a, bool a_host_cores, const RunHeader& b, bool b_host_cores);

// A setting the two runs differ in, as each records it.
struct SettingDifference {
  std::string name;
  std::string a;
  std::string b;
};
std::vector<SettingDifference> setting_differences(const RunSummary& a, const RunSummary& b);
std::vector<SettingDifference> setting_differences(const SyncSummary& a, const SyncSummary& b);

// A table of both runs (the structure table, the cases at k = every unit):
// its rows matched by their key, each with A's and B's value (NaN where that
// run has no such row).
struct TableDifference {
  std::string title;
  std::vector<std::string> key_columns;  // what the key's words are
  std::string value_words;               // "median one-way ns", "ns per barrier"
  struct Row {
    std::vector<std::string> key;
    double a = kNaN;
    double b = kNaN;
  };
  std::vector<Row> rows;  // A's rows in A's order, then B's own
};
// A map's structure table by placement, home class and where the pair sits;
// across GPUs also the GPU x GPU table and the pairs between GPUs.
std::vector<TableDifference> structure_differences(const RunSummary& a, const RunSummary& b);
// Barrier or contention: the cases at k = every unit of each set.
std::vector<TableDifference> case_differences(const SyncSummary& a, const SyncSummary& b);

// Sides (the units near each home class) and topology groups of both runs.
struct SidesDifference {
  struct Side {
    std::string name;
    std::size_t units_a = 0;
    std::size_t units_b = 0;
  };
  std::vector<Side> sides;
  // Each group (GPC, package) by name: its units and the side that holds
  // most of them, in each run (-1: the run has no such group or no sides).
  struct Group {
    std::string name;
    std::size_t units_a = 0;
    std::size_t units_b = 0;
    int side_a = -1;
    int side_b = -1;
  };
  std::vector<Group> groups;
  // One chip: the units that are on another side in B (by unit id); empty
  // for two chips, whose ids do not name the same units.
  std::vector<int> moved_units;
};
SidesDifference sides_difference(const RunHeader& a, const Topology& a_groups, const RunHeader& b,
                                 const Topology& b_groups, bool same_chip);

// A file of both runs compared cell by cell (or case by case), or why not.
struct FileDifference {
  std::string name;
  std::optional<PairedDifference> difference;
  std::string why_not;  // "only in A", "the units differ", ...
};

struct RunComparison {
  std::string a_name;  // the directories as given
  std::string b_name;
  RunHeader a;
  RunHeader b;
  std::string kind;  // "map", "barrier" or "contention"
  ChipMatch chip;
  std::vector<SettingDifference> settings;
  std::vector<TableDifference> tables;
  SidesDifference sides;
  std::vector<FileDifference> files;  // one chip only
  std::string cells_refused;          // two chips: why no cell is compared
  // The verdict: the most a compared median may move, as a share of A's
  // (0.03: 3 %), and what moved further, in words (empty: alike).
  double threshold = 0.03;
  std::vector<std::string> beyond_threshold;
  bool alike() const { return beyond_threshold.empty(); }
};

// Fills `comparison.beyond_threshold` for its threshold: a structure or case
// row whose B differs from A by more than the threshold (|B - A| / A), a row
// in one run only, a file whose median cell difference is beyond it or that
// one run lacks, and on one chip a unit on another side. Settings are named
// but do not decide.
void judge(RunComparison& comparison);

}  // namespace cumap
