#include "report/sync_summary_md.hpp"

#include <cmath>

#include <fmt/format.h>

#include "report/summary_text.hpp"

namespace cumap {
namespace {

using summary_text::cell;
using summary_text::code_cell;

std::string ns_cell(double v) { return std::isfinite(v) ? fmt::format("{:.1f}", v) : "-"; }

std::string note_of(const SyncCaseResult& c) {
  return c.unsupported ? "not supported here" : c.timed_out ? "timed out" : "";
}

}  // namespace

SyncTable sync_table(const SyncSummary& s) {
  const bool contention = s.contention();
  SyncTable t;
  const auto column = [&t](std::string title, bool numeric) {
    t.header.push_back(std::move(title));
    t.numeric.push_back(numeric);
  };
  column("set", false);
  column("k", true);
  column(contention ? "op" : "implementation", false);
  column("counter home", false);
  if (s.across_gpus) column("counter GPU", false);
  if (s.has_per_barrier) column("ns per barrier", true);
  column("median ns", true);
  column("p05 ns", true);
  column("p95 ns", true);
  if (s.has_cycles())
    column(contention ? "median cycles" : s.has_per_barrier ? "cycles per barrier" : "median cycles", true);
  if (contention) column("ops/us", true);
  column("note", false);
  for (const SyncCaseResult& c : s.at_every_unit) {
    std::vector<std::string> row{c.label.set, std::to_string(c.label.k), c.what, c.label.counter_home};
    if (s.across_gpus) row.push_back(c.label.counter_gpu);
    if (s.has_per_barrier) row.push_back(ns_cell(c.per_barrier_ns));
    for (double v : {c.ns.median, c.ns.p05, c.ns.p95}) row.push_back(ns_cell(v));
    if (s.has_cycles()) row.push_back(ns_cell(c.headline_cycles()));
    if (contention) row.push_back(ns_cell(c.ops_per_us));
    row.push_back(note_of(c));
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string sync_measured_line(const SyncSummary& s) {
  return fmt::format(
      "{} backend, {} {}s measured, {} home class(es); probe {}; each case in {} launch(es) on counter lines of its "
      "own, each launch {} {} after {} untimed.",
      s.run.backend, s.run.units.size(), s.run.unit_word(), s.run.class_count, s.probe, s.launches, s.episodes,
      s.contention() ? "batches per participant" : "episodes", s.warmup);
}

std::string sync_completeness(const SyncSummary& s) {
  return s.complete ? fmt::format("Complete: {} case(s).", s.measured_cases)
                    : fmt::format("Incomplete: {} of {} case(s) measured{}.", s.measured_cases, s.planned_cases,
                                  s.interrupted ? " (interrupted)" : "");
}

std::string sync_table_note(const SyncSummary& s) {
  std::string note =
      s.contention() ? "Median, p05 and p95 over every participant's timed batches, per operation"
      : s.has_per_barrier
          ? std::string("Ns per barrier: what one barrier costs in a loop of them, the mean over the launches "
                        "(each on counter lines of its own) of each launch's mean over its episodes. Median, p05 "
                        "and p95: over single episodes of every launch, leave to leave as the first participant saw "
                        "it; episodes trade time with their neighbours, so their median is a mode rather than a "
                        "cost")
          : "Median over episodes, leave to leave as the first participant saw it";
  return note + "; every case is in " + s.csv_name() + ", drawn in " + s.plot_name() + ".";
}

std::string sync_summary_markdown(const SyncSummary& s) {
  std::string md = fmt::format("# cumap {}: {}\n\n", cell(s.command), cell(s.run.device_name));
  md += sync_measured_line(s) + " ";
  md += s.complete ? sync_completeness(s) : "**" + sync_completeness(s) + "**";
  md += "\n\n";
  if (!s.run.caveat.empty()) md += "**" + cell(s.run.caveat) + "**\n\n";
  md += fmt::format("Command: {}\n\n", code_cell(s.run.command_line));

  md += "## At k = every unit of each set\n\n";
  const SyncTable t = sync_table(s);
  std::string header = "|", rule = "|";
  for (std::size_t i = 0; i < t.header.size(); ++i) {
    header += " " + t.header[i] + " |";
    rule += t.numeric[i] ? " ---: |" : " --- |";
  }
  md += header + "\n" + rule + "\n";
  for (const std::vector<std::string>& row : t.rows) {
    std::string line = "|";
    for (const std::string& c : row) line += " " + cell(c) + " |";
    md += line + "\n";
  }
  md += "\n" + sync_table_note(s) + "\n";
  if (!s.across.empty()) {
    md += "\n## Across GPUs\n\n";
    for (const std::string& v : s.across) md += "- " + v + "\n";
  }
  if (!s.two_level.empty()) {
    md += "\n## Two-level against the flag barrier it replaces\n\n";
    for (const std::string& v : s.two_level) md += "- " + v + "\n";
  }
  if (!s.left_out.empty()) {
    md += "\n## Left out\n\n";
    for (const std::string& n : s.left_out) md += "- " + cell(n) + "\n";
  }
  return md;
}

}  // namespace cumap
