#include "core/sync_summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "core/sync_cases.hpp"

namespace cumap {
namespace {

// Per set, its largest k: every unit of the set.
std::map<std::string, int> largest_k(const std::vector<SyncCaseResult>& cases) {
  std::map<std::string, int> most;
  for (const SyncCaseResult& c : cases) most[c.label.set] = std::max(most[c.label.set], c.label.k);
  return most;
}

// Where two-level was measured at a set's largest k: against the flag
// barrier of the same set, k and home (the one-level barrier it replaces),
// faster or slower.
std::vector<std::string> two_level_verdicts(const std::vector<SyncCaseResult>& cases) {
  std::vector<std::string> lines;
  for (const SyncCaseResult& two : cases) {
    if (two.what != "two-level" || !two.measured()) continue;
    for (const SyncCaseResult& flag : cases) {
      if (flag.what != "flag" || !flag.measured() || flag.label.set != two.label.set || flag.label.k != two.label.k ||
          flag.label.counter_home != two.label.counter_home || !(flag.headline_ns() > 0))
        continue;
      const double change = two.headline_ns() / flag.headline_ns() - 1;
      lines.push_back(fmt::format("{} k={} ({} leaders' counter, {} groups by {}): {} {:.1f} ns against "
                                  "{} {:.1f} ns: {} by {:.0f} %",
                                  two.label.set, two.label.k, two.label.counter_home, two.label.groups,
                                  two.label.grouped_by, sync_construction(two), two.headline_ns(),
                                  sync_construction(flag), flag.headline_ns(), change < 0 ? "wins" : "loses",
                                  100 * std::abs(change)));
    }
  }
  return lines;
}

// Across GPUs, per set: every construction (implementation or operation,
// and where its counter is) at its cheapest home, cheapest first, each
// against the cheapest.
std::vector<std::string> across_gpus_verdicts(const std::vector<SyncCaseResult>& cases, bool contention) {
  std::vector<std::string> sets;  // in the order measured
  for (const SyncCaseResult& c : cases)
    if (std::find(sets.begin(), sets.end(), c.label.set) == sets.end()) sets.push_back(c.label.set);
  std::vector<std::string> lines;
  for (const std::string& set : sets) {
    std::vector<std::string> order;  // constructions as measured
    std::map<std::string, const SyncCaseResult*> cheapest;
    int k = 0;
    for (const SyncCaseResult& c : cases) {
      if (c.label.set != set || !c.measured() || !std::isfinite(c.headline_ns())) continue;
      k = c.label.k;
      const std::string name = sync_construction(c);
      if (!cheapest.contains(name)) order.push_back(name);
      const SyncCaseResult*& best = cheapest[name];
      if (!best || c.headline_ns() < best->headline_ns()) best = &c;
    }
    if (order.size() < 2) continue;
    std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
      return cheapest.at(a)->headline_ns() < cheapest.at(b)->headline_ns();
    });
    const SyncCaseResult& first = *cheapest.at(order.front());
    // A cost read back from meta.json may be anything: one that is not
    // positive compares with nothing.
    if (!(first.headline_ns() > 0)) continue;
    std::string line = fmt::format("{} k={}: {} is cheapest, {:.1f} ns {} ({})", set, k, order.front(),
                                   first.headline_ns(), contention ? "per operation" : "per barrier",
                                   first.label.counter_home);
    for (std::size_t i = 1; i < order.size(); ++i) {
      const SyncCaseResult& c = *cheapest.at(order[i]);
      line += fmt::format("{} {} {:.1f} ns ({}, +{:.0f} %)", i == 1 ? "; then" : ",", order[i], c.headline_ns(),
                          c.label.counter_home, 100 * (c.headline_ns() / first.headline_ns() - 1));
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

// Equal, or both missing (NaN).
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
bool same(const Summary& a, const Summary& b) {
  return same(a.median, b.median) && same(a.p05, b.p05) && same(a.p95, b.p95) && same(a.min, b.min) &&
         same(a.max, b.max) && a.count == b.count;
}
bool same(const SyncCaseResult& a, const SyncCaseResult& b) {
  const auto label = [](const SyncCaseLabel& l) {
    return std::tie(l.set, l.k, l.counter_home, l.counter_class, l.groups, l.grouped_by, l.counter_gpu);
  };
  return label(a.label) == label(b.label) && a.what == b.what && a.participants == b.participants &&
         a.counter_offsets == b.counter_offsets && a.launches == b.launches && same(a.ns, b.ns) &&
         same(a.cycles, b.cycles) && same(a.per_barrier_ns, b.per_barrier_ns) &&
         same(a.per_barrier_cycles, b.per_barrier_cycles) && a.values == b.values && same(a.ops_per_us, b.ops_per_us) &&
         a.timed_out == b.timed_out && a.unsupported == b.unsupported && a.why == b.why;
}

}  // namespace

bool SyncSummary::operator==(const SyncSummary& o) const {
  const auto fields = [](const SyncSummary& s) {
    return std::tie(s.command, s.run, s.complete, s.interrupted, s.planned_cases, s.measured_cases, s.probe,
                    s.episodes, s.warmup, s.launches, s.ops_per_batch, s.clock_hz, s.has_per_barrier, s.across_gpus, s.left_out,
                    s.two_level, s.across);
  };
  return fields(*this) == fields(o) &&
         std::equal(at_every_unit.begin(), at_every_unit.end(), o.at_every_unit.begin(), o.at_every_unit.end(),
                    [](const SyncCaseResult& a, const SyncCaseResult& b) { return same(a, b); });
}

std::vector<SyncCaseResult> cases_at_every_unit(const std::vector<SyncCaseResult>& cases) {
  const std::map<std::string, int> most = largest_k(cases);
  std::vector<SyncCaseResult> out;
  for (const SyncCaseResult& c : cases)
    if (c.label.k == most.at(c.label.set)) out.push_back(c);
  return out;
}

void add_verdicts(SyncSummary& s) {
  s.two_level = two_level_verdicts(s.at_every_unit);
  s.across = s.across_gpus ? across_gpus_verdicts(s.at_every_unit, s.contention()) : std::vector<std::string>{};
}

SyncSummary sync_summary(const SyncResult& r) {
  SyncSummary s;
  s.command = r.settings.contention ? "contention" : "barrier";
  s.run = run_header(r.discovery);
  s.complete = r.complete();
  s.interrupted = r.interrupted;
  s.planned_cases = r.planned_cases;
  s.measured_cases = r.cases.size();
  s.probe = to_string(r.settings.probe);
  s.episodes = r.settings.episodes;
  s.warmup = r.settings.warmup;
  s.launches = r.settings.launches;
  if (r.settings.contention) s.ops_per_batch = r.settings.ops_per_batch;
  s.clock_hz = r.clock_hz > 0 ? r.clock_hz : 0.0;
  s.has_per_barrier = !r.settings.contention;
  s.across_gpus = r.discovery.homes.size() > 1;
  s.at_every_unit = cases_at_every_unit(r.cases);
  s.left_out = r.notes;
  add_verdicts(s);
  return s;
}

}  // namespace cumap
