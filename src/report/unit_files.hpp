#pragma once
// The files of a map run that describe its units rather than its latencies,
// and summary.md, all made from the result like the rest:
//   units.csv       one row per unit: how pairs.csv and the matrices name it,
//                   its device, side, topology group and matrix row
//   topology.json   the units' topology and sides, as `cumap topology --json`
//                   writes them (topology_file_json)
//   summary.md      the run in a page (run_summary.hpp), from meta.json's JSON
#include <future>
#include <string>

#include <nlohmann/json.hpp>

#include "core/topology.hpp"
#include "cumap/result.hpp"
#include "report/pending_files.hpp"

namespace cumap {

// unit,device,unit_index,side,group,display_index
//   unit           the id as pairs.csv's a and b and the matrices' first row
//                  and column name it ("5"; across devices "g1.5")
//   device         the device part of that id (pairs.csv's flags_on numbering;
//                  0 on a one-device run, whose GPU meta.json names)
//   unit_index     the unit's number on its device
//   side           the home class the unit is nearest (empty with --via dsm)
//   group          its topology group ("GPC3", a CPU package...; empty if none)
//   display_index  its row (and column) in the matrices and heatmaps, from 0
std::string units_csv(const MapResult& result);

// {"source", "groups", "details"} of the topology (`cumap render --order`
// reads it), "sides" (units grouped by the home class they are nearest) and
// "home_classes"; without homes (--via dsm) neither of the last two.
nlohmann::json topology_file_json(const Topology& topology, const RunHomes& homes);

// Adds units.csv, topology.json and summary.md; summary.md waits for `meta`
// (the JSON meta.json is written from) and summarizes it. `result` must
// outlive `files`.
void add_unit_and_summary_files(const MapResult& result, std::shared_future<nlohmann::json> meta, PendingFiles& files);

}  // namespace cumap
