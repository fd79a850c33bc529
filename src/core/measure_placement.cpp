// One placement over every home class: the plans, the serial self-check of a
// concurrent schedule, and the choice of concurrency under --schedule.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "cumap/map_run.hpp"
#include "cumap/planner.hpp"
#include "cumap/stats.hpp"
#include "serial_check.hpp"

namespace cumap {
namespace {

// A planned pair's tag says which class and which pass its lines belong to.
constexpr int kPassesPerClass = 1 << 16;
int tag_of(int cls, int pass) { return cls * kPassesPerClass + pass; }
int class_of_tag(int tag) { return tag / kPassesPerClass; }
int pass_of_tag(int tag) { return tag % kPassesPerClass; }

MeasurementPlan base_plan(const PlacementRequest& r) {
  const Options& o = *r.options;
  MeasurementPlan plan;
  for (int u : r.units) plan.units.push_back(unit_ref(u, o.device));
  plan.counts = {o.iters, o.samples, o.warmup, o.ordered};
  plan.probe = o.probe;
  plan.timeout_ms = o.timeout_ms;
  plan.arena = r.homes->arena;
  plan.path = o.via;
  plan.flush_cache = o.flush_cache;
  plan.l2_persist = o.l2_persist;
  return plan;
}

PairRounds pair_rounds(const PlacementRequest& r) {
  if (r.pairs_per_round <= 1) return serial_rounds(r.units, r.options->ordered);
  return limit_rounds(round_robin_rounds(r.units, r.options->ordered), r.pairs_per_round, r.exclusive_key);
}

void add_stats(RunStats& sum, const RunStats& s) {
  sum.device_seconds += s.device_seconds;
  sum.launches += s.launches;
  if (std::isfinite(s.clock_hz)) sum.clock_hz = s.clock_hz;
  if (!s.extra.empty()) sum.extra = s.extra;
}

// The planned pairs a resumed run still needs: those `done` lacks for this
// class and pass (timed-out ones are measured again). Rounds left empty go.
std::vector<Round> without_measured(std::vector<Round> rounds, const std::vector<PairStats>& done, int cls, int pass) {
  if (done.empty()) return rounds;
  std::set<std::pair<int, int>> have;
  for (const PairStats& p : done)
    if (p.home_class == cls && p.pass == pass && !p.timed_out) have.emplace(p.a, p.b);
  for (Round& r : rounds)
    std::erase_if(r.pairs, [&](const PlannedPair& p) { return have.contains({p.a.unit, p.b.unit}); });
  std::erase_if(rounds, [](const Round& r) { return r.pairs.empty(); });
  return rounds;
}

}  // namespace

PlacementResult measure_placement(Backend& backend, const PlacementRequest& r, const ProgressFn& progress,
                                  const StopFn& stop) {
  const HomeClasses& classes = r.homes->classes;
  LinePools pools;
  for (int c = 0; c < classes.class_count; ++c) pools.by_class.push_back(classes.lines_of(c, r.homes->table.lines));

  PlacementResult result;
  result.placement = r.placement;
  result.pairs_per_round = r.pairs_per_round;
  const PairRounds rounds = pair_rounds(r);
  // Inside a cluster the flags are in the partners' shared memory: L2 homes
  // and flag lines do not apply, and the path itself decides which pairs it
  // can reach, so one pass over the pairs says everything.
  const bool dsm = r.options->via == Path::Dsm;
  const int class_count = dsm ? 1 : classes.class_count;
  const int passes = dsm ? 1 : r.lines_per_class;
  const std::size_t plans = static_cast<std::size_t>(class_count) * static_cast<std::size_t>(passes);

  // Every (class, pass) plan first: a concurrent placement measures its
  // serial check sample before the passes and again after them.
  std::vector<MeasurementPlan> plans_of_class_pass;
  MeasurementPlan all = base_plan(r);
  for (int c = 0; c < class_count; ++c)
    for (int pass = 0; pass < passes; ++pass) {
      MeasurementPlan plan = base_plan(r);
      plan.rounds = without_measured(
          assign_lines(rounds, pools, r.placement, c, pass, passes, tag_of(c, pass), r.options->device),
          r.already_measured, c, pass);
      all.rounds.insert(all.rounds.end(), plan.rounds.begin(), plan.rounds.end());
      plans_of_class_pass.push_back(std::move(plan));
    }
  std::optional<SerialSample> sample;
  if (r.pairs_per_round > 1 && !all.rounds.empty()) {
    sample.emplace();
    sample->plan = all;
    sample->plan.rounds = serial_check_sample(all.rounds, static_cast<std::size_t>(r.options->check_pairs));
    sample->before = pair_medians(backend.measure(sample->plan, {}));
  }

  Measurements measured;
  std::size_t done = 0;
  for (int c = 0; c < class_count && result.complete; ++c) {
    std::vector<PairMeasurement> class_pairs;
    for (int pass = 0; pass < passes; ++pass) {
      if (stop && stop()) {
        result.complete = false;
        break;
      }
      const MeasurementPlan& plan = plans_of_class_pass[done];
      ++done;
      if (plan.rounds.empty()) continue;
      Measurements m = backend.measure(plan, [&](std::size_t d, std::size_t t) {
        if (progress) progress((done - 1) * t + d, plans * t);
      });
      add_stats(result.stats, m.stats);
      class_pairs.insert(class_pairs.end(), m.pairs.begin(), m.pairs.end());
      measured.pairs.insert(measured.pairs.end(), m.pairs.begin(), m.pairs.end());
    }
    MapSpec spec{r.placement, c, r.units, r.options->ordered, r.options->iters};
    LatencyMap map = summarize_measurements(class_pairs, spec, class_of_tag, pass_of_tag);
    for (const PairStats& p : r.already_measured)
      if (p.home_class == c) map.pairs.push_back(p);
    result.per_class.push_back(std::move(map));
    result.fits.push_back(fit_additive(result.per_class.back().oneway_ns()));
  }
  result.headline = merge_maps(result.per_class, {r.placement, MapSpec::kAllClasses, r.units, r.options->ordered,
                                                  r.options->iters});

  // Even passes against odd passes: two disjoint sets of lines per pair.
  LatencyMap even{result.headline.spec, {}}, odd{result.headline.spec, {}};
  for (const PairStats& p : result.headline.pairs) (p.pass % 2 == 0 ? even : odd).pairs.push_back(p);
  if (!odd.pairs.empty()) result.line_sets = agreement(even.oneway_ns(), odd.oneway_ns());

  if (sample && result.complete && !measured.pairs.empty())
    result.checks.push_back(judge_serial_check(backend, *sample, measured, r.pairs_per_round,
                                               r.options->check_max_rel_diff));
  return result;
}

PlacementResult measure_placement_scheduled(Backend& backend, PlacementRequest request, const ProgressFn& progress,
                                            const StopFn& stop) {
  const ScheduleKind kind = request.options->schedule;
  if (kind == ScheduleKind::Serial) request.pairs_per_round = 1;
  std::vector<SelfCheck> tried;
  for (;;) {
    PlacementResult result = measure_placement(backend, request, progress, stop);
    if (!result.complete) return result;
    const bool passed = result.checks.empty() || result.checks.back().passed;
    tried.insert(tried.end(), result.checks.begin(), result.checks.end());
    if (kind != ScheduleKind::Auto || passed || request.pairs_per_round <= 1) {
      result.checks = tried;
      return result;
    }
    request.pairs_per_round /= 2;
  }
}

}  // namespace cumap
