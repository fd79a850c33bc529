#pragma once
// The files of `cumap barrier` and `cumap contention`, from their result:
//   barrier.csv or contention.csv   every case, long form (sync_csv)
//   barrier.png or contention.png   latency against k, a panel per participant set (sync_plot)
//   summary.md                      the run in a page: the table at k = every unit of each set,
//                                   made from meta.json and the CSV (sync_summary)
//   report.html                     the same with the plot in one self-contained page (sync_report_html)
//   homes.csv, homes.json           the home discovery the counter lines were chosen by
//   meta.json                       the device, command line, options, clock, homes, complete true/false
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "render/render.hpp"
#include "cumap/result.hpp"
#include "report/output_set.hpp"

namespace cumap {

void write_sync_outputs(const SyncResult& result, OutputSet& out);

// Whether the run spans GPUs (home discovery on more than one): only then do
// its files name the counter's GPU.
bool sync_spans_gpus(const SyncResult& result);

// The CSV's name and content: one row per case in plan order.
std::string sync_csv_name(const SyncResult& result);  // "barrier.csv" or "contention.csv"
std::string sync_csv(const SyncResult& result);
// A cell of free text as the CSV has it: quoted, quotes doubled, where it
// holds a comma or quote; a line break becomes a space.
std::string sync_csv_cell(const std::string& text);

// The plot's panels (one per participant set, in the order measured) and style.
std::vector<PlotPanel> sync_plot_panels(const SyncResult& result);
LinePlotStyle sync_plot_style(const SyncResult& result);

nlohmann::json make_sync_meta(const SyncResult& result);
// summary.md of the result: its meta.json and CSV through sync_summary.hpp,
// as the run writes it.
std::string sync_summary_md(const SyncResult& result);

}  // namespace cumap
