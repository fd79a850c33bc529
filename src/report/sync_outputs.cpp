// The output set of `cumap barrier` and `cumap contention`: meta.json, and
// where each file is made.
#include "report/sync_outputs.hpp"

#include <future>
#include <string>

#include "report/meta_json.hpp"
#include "report/pending_files.hpp"
#include "report/sync_report_html.hpp"
#include "report/sync_summary.hpp"

namespace cumap {
namespace {

std::string command_name(const SyncResult& r) { return r.settings.contention ? "contention" : "barrier"; }

}  // namespace

nlohmann::json make_sync_meta(const SyncResult& r) {
  nlohmann::json j = make_homes_meta(r.discovery);
  j["command"] = command_name(r);
  j["options"] = r.settings.options;
  j["complete"] = r.complete();
  j["interrupted"] = r.interrupted;
  j["clock"] = {{"source", r.discovery.device.clock_source},
                {"clock_hz", r.clock_hz > 0 ? nlohmann::json(r.clock_hz) : nlohmann::json()}};
  j["device_seconds"] = r.device_seconds;
  std::size_t timed_out = 0, unsupported = 0;
  for (const SyncCaseResult& c : r.cases) {
    timed_out += c.timed_out;
    unsupported += c.unsupported;
  }
  j["cases"] = {{"planned", r.planned_cases},
                {"measured", r.cases.size()},
                {"timed_out", timed_out},
                {"unsupported", unsupported},
                {"file", sync_csv_name(r)}};
  j["left_out"] = r.notes;
  j["settings"] = {{"probe", to_string(r.settings.probe)},
                   {"episodes", r.settings.episodes},
                   {"warmup", r.settings.warmup},
                   {"launches", r.settings.launches},
                   {"timeout_ms", r.settings.timeout_ms}};
  if (r.settings.contention) j["settings"]["ops_per_batch"] = r.settings.ops_per_batch;
  return j;
}

std::string sync_summary_md(const SyncResult& r) {
  return sync_summary_markdown(sync_summary(make_sync_meta(r), sync_csv(r), sync_csv_name(r)));
}

void write_sync_outputs(const SyncResult& r, OutputSet& out) {
  const nlohmann::json meta = make_sync_meta(r);
  const std::string csv = sync_csv(r);
  // summary.md and report.html read what meta.json and the CSV say, as
  // `cumap summary DIR` does: the three never disagree.
  const SyncSummary summary = sync_summary(meta, csv, sync_csv_name(r));
  // The plot is drawn once, for its file and the page.
  std::shared_future<std::string> png;
  if (!r.cases.empty())
    png = std::async(std::launch::async, [&r] {
            return encode_png(render_line_plot(sync_plot_panels(r), sync_plot_style(r)));
          }).share();
  PendingFiles files(out);
  files.add(sync_csv_name(r), [&csv] { return csv; });
  if (png.valid()) files.add(summary.plot_name(), [png] { return png.get(); });
  files.add("summary.md", [&summary] { return sync_summary_markdown(summary); });
  files.add("report.html", [&summary, png] { return sync_report_html(summary, png.valid() ? png.get() : ""); });
  files.add("homes.csv", [&r] { return homes_csv(r.discovery.homes); });
  files.add("homes.json", [&r] { return homes_json(r.discovery.homes).dump(2) + "\n"; });
  files.write_all_then_meta([&meta] { return meta; });
}

}  // namespace cumap
