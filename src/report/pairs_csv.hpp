#pragma once
#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "cumap/latency_map.hpp"
#include "cumap/options.hpp"
#include "cumap/result.hpp"
#include "publish/output_set.hpp"

namespace cumap {

// pairs.csv, long form, one row per pair, placement and flag line:
// a,b,via,placement,home_class,pass,first_flag,second_flag,flags_on,oneway_ns_median,line_correction_ns,
// rtt_ns_median,p05_ns,p95_ns,min_ns,cycles_median,cold_ns,samples,iters,timed_out
// (read back for --resume by report/read/pairs_csv.hpp). As one text
// (tests, and files small enough to join).
std::string pairs_csv(const std::vector<const LatencyMap*>& maps, Path via = Path::Global);

// pairs.csv written a placement at a time, as a run's maps are made
// (MapObserver::class_maps_made): across two GPUs the file is ~400 MB, and
// written after the map its rows and their sync to disk took 0.6 s; so,
// most of it is on disk while the last placement is measured.
class PairsCsvFile {
 public:
  // Opens pairs.csv in `out` (nothing is published until finish()), for
  // the placements of a run in their order.
  PairsCsvFile(OutputSet& out, Path via, std::vector<Placement> placements);
  // A placement's class maps, once made; from any thread. Written only when
  // it is the next placement of the run: one out of order is left to finish().
  void add(Placement placement, std::span<const LatencyMap> per_class);
  // Writes the placements of `result` not added yet, and commits the file.
  void finish(const MapResult& result);

 private:
  void write(std::span<const LatencyMap> per_class);

  OutputSet& out_;
  Path via_;
  std::vector<Placement> placements_;
  std::size_t added_ = 0;  // placements written, from the front of placements_
  std::unique_ptr<AtomicFile> file_;
  std::mutex mutex_;
};

}  // namespace cumap
