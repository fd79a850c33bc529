#pragma once
// `cumap render --order`: how to draw a matrix CSV, read from a run's
// output directory or meta.json (its display order and groups, and how the
// run drew that CSV), or from a topology JSON.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/run_header.hpp"
#include "cumap/topology.hpp"
#include "report/read/picture_record.hpp"

namespace cumap {

// What --order says about drawing a matrix of `units`.
struct DisplaySpec {
  std::vector<int> order;          // every unit of the matrix, in display order
  std::optional<Topology> groups;  // separators and names; none with fewer than two groups
  std::optional<PictureRecord> picture;  // a run's meta.json: how the run drew this CSV
  std::string unit_name;           // a run's meta.json: "SM", "CU", "cpu"; else empty
  bool ordered = false;            // a run's meta.json: measured with --ordered
  std::string order_words;         // "side, then group", "group", or empty
  // A run's meta.json: the run's device, serials and units (which chip drew the order).
  std::optional<RunHeader> run;
};
// Reads --order `path`: a run's output directory or its meta.json (the
// run's display order and groups; groups rebuilt from its topology and
// sides where an older meta.json lacks "display_groups"), or a topology JSON
// (`cumap topology --json`, or written by hand), whose "sides", where it has
// two or more, come before its groups as in a run. `csv_name` picks the
// run's picture record. UsageError naming the file if it is neither, or
// names a unit that is not in `units`.
DisplaySpec read_order(const std::filesystem::path& path, const std::vector<int>& units, const std::string& csv_name);

}  // namespace cumap
