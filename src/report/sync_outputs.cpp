// The output set of `cumap barrier` and `cumap contention`: where each file
// is made, each on a worker thread, meta.json last.
#include "report/sync_outputs.hpp"

#include <future>
#include <string>

#include "core/sync_summary.hpp"
#include "publish/json_file.hpp"
#include "publish/pending_files.hpp"
#include "report/homes_csv.hpp"
#include "report/homes_json.hpp"
#include "report/meta_json.hpp"
#include "report/sync_csv.hpp"
#include "report/sync_png.hpp"
#include "report/sync_report_html.hpp"
#include "report/sync_summary_md.hpp"

namespace cumap {

void write_sync_outputs(const SyncResult& r, OutputSet& out) {
  const SyncSummary summary = sync_summary(r);
  // The plot is drawn once, for its file and the page.
  std::shared_future<std::string> png;
  if (!r.cases.empty())
    png = std::async(std::launch::async, [&r] {
            return encode_png(render_line_plot(sync_plot_panels(r), sync_plot_style(r)));
          }).share();
  PendingFiles files(out);
  files.add(sync_csv_name(r), [&r] { return sync_csv(r); });
  if (png.valid()) files.add(summary.plot_name(), [png] { return png.get(); });
  files.add("summary.md", [&summary] { return sync_summary_markdown(summary); });
  files.add("report.html", [&summary, png] { return sync_report_html(summary, png.valid() ? png.get() : ""); });
  files.add("homes.csv", [&r] { return homes_csv(r.discovery.homes); });
  files.add("homes.json", [&r] { return json_file_text(homes_json(r.discovery.homes)); });
  files.write_all_then_meta([&r, &summary] { return make_sync_meta(r, summary); });
}

}  // namespace cumap
