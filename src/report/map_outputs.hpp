#pragma once
#include "core/run_summary.hpp"
#include "cumap/result.hpp"
#include "publish/output_set.hpp"
#include "report/pairs_csv.hpp"

namespace cumap {

// A map's files, from its result and the summary made from it (run_summary,
// made here while the files that need only the result are written, and
// returned for the console), written into `out` each whole or not at all,
// meta.json last:
//   matrix-<placement>.csv, heatmap-<placement>.png   the headline map (every home class)
//   matrix-<placement>-home<c>.csv, heatmap-...png   flags in home class c (with several classes)
//   line-spread-<placement>.csv                       largest minus smallest per-line value (several lines)
//   heatmap.png                                       every placement's maps on one scale (heatmap_png.hpp)
//   pairs.csv, meta.json                              every pair x line (not --no-pairs-csv); the rest (meta_json.hpp)
//   gpus.csv                                          across GPUs: the GPU x GPU table
//   cluster-barrier.csv                               --via dsm: barrier.cluster by cluster size
//   homes.csv, homes.json, heatmap-homes.png          home discovery (homes_outputs.hpp; not with --via dsm)
//   units.csv, topology.json                          the units, their topology and sides
//   summary.md, report.html                           the run in a page, and in one self-contained page
// `result` and the summary only are read, on worker threads. `pairs`:
// pairs.csv as the run streamed it (the placements it has so far), or
// nullptr to write it here whole (where settings.pairs_csv asks for it).
RunSummary write_map_outputs(const MapResult& result, OutputSet& out, PairsCsvFile* pairs = nullptr);

}  // namespace cumap
