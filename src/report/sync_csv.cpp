// barrier.csv and contention.csv: the long form, one row per case.
//
// Columns, all times in nanoseconds:
//   implementation (barrier) or op (contention)   counter, flag, two-level, platform; cas, add
//   k                     participants
//   set                   one-side, alternating, one-gpc, spread (how they were chosen)
//   counter_home          near or far (the counter's line relative to the participants), any
//                         (one home class: the two are the same), own (the platform's barrier)
//   counter_gpu           only in a run across GPUs: the GPU whose memory holds the counter (g0,
//                         g1, ...; near and far are then judged by the participants on it), each
//                         (two-level by GPU: every group's lines on its own GPU), empty for own
//   counter_class         home class of the counter's line (empty for own)
//   counter_offsets       byte offsets of the counter's line in the flag arena, one per launch,
//                         space-separated in launch order (each launch has lines of its own)
//   launches              launches measured (--launches; fewer when interrupted)
//   per_barrier_ns        barrier only: what one barrier costs in a loop of them: the mean over
//                         the launches of each launch's mean over its episodes (episodes trade
//                         time with their neighbours: their median is a mode)
//   per_barrier_cycles    the same in device cycles
//   median_ns, p05_ns, p95_ns   barrier: per episode, leave to leave, seen by the first
//                         participant; contention: per operation, over every participant's batches;
//                         over every launch
//   median_cycles, p05_cycles, p95_cycles   the same in device cycles (empty without a cycle clock)
//   episodes              barrier: timed episodes; contention: timed batches per participant;
//                         all launches together
//   ops_per_batch, ops_per_us   contention: dependent operations per batch; operations all
//                         participants completed per microsecond together (median over launches)
//   timeouts              1 when the case hit --timeout-ms (it then has no values), else 0
//   groups                two-level: how many groups, and by what ("2 by side")
//   participants          unit ids in participant order, space-separated (the first times the barrier);
//                         across GPUs written g<gpu>.<unit>
//   note                  why a case has no values (not supported here, timed out)
// Empty cells mark values that do not exist.
#include "report/sync_csv.hpp"

#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/units.hpp"

namespace cumap {
namespace {

std::string number(double v) { return std::isfinite(v) ? fmt::format("{:.3f}", v) : ""; }

std::string note(const SyncCaseResult& c) {
  if (c.unsupported) return "not supported here: " + c.why;
  if (c.timed_out) return "timed out";
  return "";
}

// A cell of free text: quoted, quotes doubled, where it holds a comma or
// quote; a line break becomes a space.
std::string text_cell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' || c == '\r' ? ' ' : c);
  return quoted + "\"";
}

}  // namespace

bool sync_spans_gpus(const SyncResult& r) { return r.discovery.homes.size() > 1; }

std::string sync_csv_name(const SyncResult& r) { return r.settings.contention ? "contention.csv" : "barrier.csv"; }

std::string sync_csv_header(bool contention, bool across) {
  return fmt::format(
      "{},k,set,counter_home,{}counter_class,counter_offsets,launches,{}median_ns,p05_ns,p95_ns,median_cycles,"
      "p05_cycles,p95_cycles,episodes,{}timeouts,groups,participants,note\n",
      contention ? "op" : "implementation", across ? "counter_gpu," : "",
      contention ? "" : "per_barrier_ns,per_barrier_cycles,", contention ? "ops_per_batch,ops_per_us," : "");
}

std::string sync_csv_row(const SyncCaseResult& c, bool contention, bool across, int ops_per_batch) {
  std::string out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{},{},{},{},", c.what, c.label.k, c.label.set, c.label.counter_home);
  if (across) fmt::format_to(it, "{},", c.label.counter_gpu);
  fmt::format_to(it, "{},{},{},", c.label.counter_class >= 0 ? std::to_string(c.label.counter_class) : "",
                 fmt::join(c.counter_offsets, " "), c.launches);
  if (!contention) fmt::format_to(it, "{},{},", number(c.per_barrier_ns), number(c.per_barrier_cycles));
  fmt::format_to(it, "{},{},{},{},{},{},{},", number(c.ns.median), number(c.ns.p05), number(c.ns.p95),
                 number(c.cycles.median), number(c.cycles.p05), number(c.cycles.p95), c.values);
  if (contention) fmt::format_to(it, "{},{},", ops_per_batch, number(c.ops_per_us));
  std::vector<std::string> participants;  // across GPUs "g1.5", as the map's files name units
  for (int u : c.participants) participants.push_back(across ? format_unit_id(u, true) : std::to_string(u));
  fmt::format_to(it, "{},{},{},{}\n", c.timed_out ? 1 : 0,
                 c.label.groups > 0 ? fmt::format("{} by {}", c.label.groups, c.label.grouped_by) : "",
                 fmt::join(participants, " "), text_cell(note(c)));
  return out;
}

std::string sync_csv(const SyncResult& r) {
  const bool contention = r.settings.contention;
  const bool across = sync_spans_gpus(r);
  std::string out = sync_csv_header(contention, across);
  for (const SyncCaseResult& c : r.cases) out += sync_csv_row(c, contention, across, r.settings.ops_per_batch);
  return out;
}

}  // namespace cumap
