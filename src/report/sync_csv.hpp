#pragma once
// barrier.csv and contention.csv: every case of `cumap barrier` or `cumap
// contention`, long form, one row per case in plan order (sync_csv.cpp says
// each column).
#include <string>

#include "cumap/result.hpp"

namespace cumap {

// Whether the run spans GPUs (home discovery on more than one): only then do
// its files name the counter's GPU.
bool sync_spans_gpus(const SyncResult& result);

std::string sync_csv_name(const SyncResult& result);  // "barrier.csv" or "contention.csv"
std::string sync_csv(const SyncResult& result);

// The file's header and one row of it, for `cumap summary --format csv`,
// which prints the rows at k = every unit as the file has them.
std::string sync_csv_header(bool contention, bool across_gpus);
std::string sync_csv_row(const SyncCaseResult& c, bool contention, bool across_gpus, int ops_per_batch);

}  // namespace cumap
