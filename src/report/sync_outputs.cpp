// The output set of `cumap barrier` and `cumap contention`: meta.json,
// summary.md, and where each file is made.
#include "report/sync_outputs.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

#include "report/meta_json.hpp"
#include "report/pending_files.hpp"

namespace cumap {
namespace {

std::string command_name(const SyncResult& r) { return r.settings.contention ? "contention" : "barrier"; }

std::string ns_cell(double v) { return std::isfinite(v) ? fmt::format("{:.1f}", v) : "-"; }

// Per set, its largest k: every unit of the set.
std::map<std::string, int> largest_k(const SyncResult& r) {
  std::map<std::string, int> most;
  for (const SyncCaseResult& c : r.cases) most[c.label.set] = std::max(most[c.label.set], c.label.k);
  return most;
}

// Where two-level was measured at a set's largest k: against the flag
// barrier of the same set, k and home (the one-level barrier it replaces),
// faster or slower.
std::vector<std::string> two_level_verdicts(const SyncResult& r, const std::map<std::string, int>& most) {
  std::vector<std::string> lines;
  for (const SyncCaseResult& two : r.cases) {
    if (two.what != "two-level" || !two.measured() || two.label.k != most.at(two.label.set)) continue;
    for (const SyncCaseResult& flag : r.cases) {
      if (flag.what != "flag" || !flag.measured() || flag.label.set != two.label.set || flag.label.k != two.label.k ||
          flag.label.counter_home != two.label.counter_home)
        continue;
      const double change = two.headline_ns() / flag.headline_ns() - 1;
      lines.push_back(fmt::format("- {} k={} ({} leaders' counter, {} groups by {}): two-level {:.1f} ns against "
                                  "flag {:.1f} ns: {} by {:.0f} %",
                                  two.label.set, two.label.k, two.label.counter_home, two.label.groups,
                                  two.label.grouped_by, two.headline_ns(), flag.headline_ns(),
                                  change < 0 ? "wins" : "loses", 100 * std::abs(change)));
    }
  }
  return lines;
}

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
                   {"timeout_ms", r.settings.timeout_ms}};
  if (r.settings.contention) j["settings"]["ops_per_batch"] = r.settings.ops_per_batch;
  return j;
}

std::string sync_summary_md(const SyncResult& r) {
  const DeviceInfo& d = r.discovery.device;
  const bool contention = r.settings.contention;
  std::string md = fmt::format("# cumap {}: {}\n\n", command_name(r), d.name);
  const int classes = class_count(r.discovery.homes);
  md += fmt::format("{} backend, {} {}s measured, {} home class(es); probe {}, {} {} per case after {} untimed. ",
                    d.backend, r.discovery.display_order.size(), d.unit_name, classes, to_string(r.settings.probe),
                    r.settings.episodes, contention ? "batches per participant" : "episodes", r.settings.warmup);
  md += r.complete() ? fmt::format("Complete: {} case(s).\n\n", r.cases.size())
                     : fmt::format("**Incomplete**: {} of {} case(s) measured{}.\n\n", r.cases.size(),
                                   r.planned_cases, r.interrupted ? " (interrupted)" : "");
  md += fmt::format("Command: `{}`\n\n", r.discovery.run.command_line);

  const std::map<std::string, int> most = largest_k(r);
  md += "## At k = every unit of each set\n\n";
  const bool cycles = r.has_cycles();
  md += fmt::format("| set | k | {} | counter home |{} median ns | p05 ns | p95 ns |{}{} note |\n",
                    contention ? "op" : "implementation", contention ? "" : " ns per barrier |",
                    cycles ? (contention ? " median cycles |" : " cycles per barrier |") : "",
                    contention ? " ops/us |" : "");
  md += fmt::format("| --- | ---: | --- | --- |{} ---: | ---: | ---: |{}{} --- |\n", contention ? "" : " ---: |",
                    cycles ? " ---: |" : "", contention ? " ---: |" : "");
  for (const SyncCaseResult& c : r.cases) {
    if (c.label.k != most.at(c.label.set)) continue;
    const std::string note = c.unsupported ? "not supported here" : c.timed_out ? "timed out" : "";
    md += fmt::format("| {} | {} | {} | {} |", c.label.set, c.label.k, c.what, c.label.counter_home);
    if (!contention) md += fmt::format(" {} |", ns_cell(c.per_barrier_ns));
    md += fmt::format(" {} | {} | {} |", ns_cell(c.ns.median), ns_cell(c.ns.p05), ns_cell(c.ns.p95));
    if (cycles) md += fmt::format(" {} |", ns_cell(c.headline_cycles()));
    if (contention) md += fmt::format(" {} |", ns_cell(c.ops_per_us));
    md += fmt::format(" {} |\n", note);
  }
  md += contention ? "\nMedian, p05 and p95 over every participant's timed batches, per operation"
                   : fmt::format("\nNs per barrier: the median over {} blocks of consecutive episodes of each block's "
                                 "mean, what one barrier costs in a loop of them. Median, p05 and p95: over single "
                                 "episodes, leave to leave as the first participant saw it; episodes trade time with "
                                 "their neighbours, so their median is a mode rather than a cost",
                                 kPerBarrierBlocks);
  md += "; every case is in " + sync_csv_name(r) + ", drawn in " + (contention ? "contention.png" : "barrier.png") +
        ".\n";
  if (const std::vector<std::string> verdicts = two_level_verdicts(r, most); !verdicts.empty()) {
    md += "\n## Two-level against the flag barrier it replaces\n\n";
    for (const std::string& v : verdicts) md += v + "\n";
  }
  if (!r.notes.empty()) {
    md += "\n## Left out\n\n";
    for (const std::string& n : r.notes) md += "- " + n + "\n";
  }
  return md;
}

void write_sync_outputs(const SyncResult& r, OutputSet& out) {
  PendingFiles files(out);
  files.add(sync_csv_name(r), [&r] { return sync_csv(r); });
  if (!r.cases.empty())
    files.add(r.settings.contention ? "contention.png" : "barrier.png",
              [&r] { return encode_png(render_line_plot(sync_plot_panels(r), sync_plot_style(r))); });
  files.add("summary.md", [&r] { return sync_summary_md(r); });
  files.add("homes.csv", [&r] { return homes_csv(r.discovery.homes); });
  files.add("homes.json", [&r] { return homes_json(r.discovery.homes).dump(2) + "\n"; });
  files.write_all_then_meta([&r] { return make_sync_meta(r); });
}

}  // namespace cumap
