#pragma once
// meta.json: everything needed to reproduce or compare a run, beside its
// files. Its summary keys are the run's summary (summary_json.hpp, to_json)
// and the rest, written here, is what only a script reads: the device's
// facts, the options as given, each map's checks, timings and per-class
// entries, the homes' recheck, the display groups.
#include <string>

#include <nlohmann/json.hpp>

#include "core/run_summary.hpp"
#include "core/sync_summary.hpp"
#include "cumap/result.hpp"

namespace cumap {

// A map's, from its result and the summary made from it.
nlohmann::json make_meta(const MapResult& result, const RunSummary& summary);
// The same in two steps: what the result alone says (most of the work: the
// maps' counts and statistics), made while the summary is, then the summary
// merged into it.
nlohmann::json make_result_meta(const MapResult& result);
void add_summary_meta(nlohmann::json& meta, const RunSummary& summary);
// `cumap homes`', whose result holds no maps: what a map's meta.json says
// about the run, device, units and homes, and the options home discovery reads.
nlohmann::json make_homes_meta(const MapResult& result);
// `cumap barrier`'s and `cumap contention`'s: home discovery's as `cumap
// homes` writes it, the command, its settings and cases, and whether it is
// complete.
nlohmann::json make_sync_meta(const SyncResult& result, const SyncSummary& summary);

std::string utc_timestamp_now();
std::string host_name();

}  // namespace cumap
