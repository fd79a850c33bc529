#include "report/sync_summary_formats.hpp"

#include "report/json_number.hpp"
#include "report/summary_formats.hpp"
#include "report/sync_csv.hpp"

namespace cumap {
namespace {

using Json = nlohmann::json;

std::string note_of(const SyncCaseResult& c) {
  if (c.unsupported) return c.why.empty() ? "not supported here" : "not supported here: " + c.why;
  return c.timed_out ? "timed out" : "";
}

}  // namespace

std::string sync_summary_csv(const SyncSummary& s) {
  std::string out = sync_csv_header(s.contention(), s.across_gpus);
  for (const SyncCaseResult& c : s.at_every_unit)
    out += sync_csv_row(c, s.contention(), s.across_gpus, s.ops_per_batch);
  return out;
}

Json sync_summary_fields_json(const SyncSummary& s) {
  Json rows = Json::array();
  for (const SyncCaseResult& c : s.at_every_unit) {
    Json row = {{"set", c.label.set},
                {"k", c.label.k},
                {s.contention() ? "op" : "implementation", c.what},
                {"counter_home", c.label.counter_home},
                {"headline_ns", number_or_null(c.headline_ns())}};
    if (s.across_gpus) row["counter_gpu"] = c.label.counter_gpu;
    if (s.has_per_barrier) row["per_barrier_ns"] = number_or_null(c.per_barrier_ns);
    row["median_ns"] = number_or_null(c.ns.median);
    row["p05_ns"] = number_or_null(c.ns.p05);
    row["p95_ns"] = number_or_null(c.ns.p95);
    row["headline_cycles"] = number_or_null(c.headline_cycles());
    if (s.contention()) row["ops_per_us"] = number_or_null(c.ops_per_us);
    row["measured"] = c.measured();
    row["note"] = note_of(c);
    rows.push_back(std::move(row));
  }
  Json settings = {{"probe", s.probe}, {"episodes", s.episodes}, {"warmup", s.warmup}, {"launches", s.launches}};
  if (s.contention()) settings["ops_per_batch"] = s.ops_per_batch;
  const RunHeader& run = s.run;
  Json out = header_fields_json(s.run);
  out.update(Json{{"command", s.command},
                  {"settings", settings},
                  {"complete", s.complete},
                  {"interrupted", s.interrupted},
                  {"cases", {{"planned", s.planned_cases}, {"measured", s.measured_cases}, {"file", s.csv_name()}}},
                  {"headline", s.has_per_barrier ? "per_barrier_ns" : "median_ns"},
                  {"rows", rows},
                  {"two_level", s.two_level},
                  {"left_out", s.left_out}});
  if (s.across_gpus) out["across_gpus"] = s.across;
  if (!run.caveat.empty()) out["caveat"] = run.caveat;
  return out;
}

}  // namespace cumap
