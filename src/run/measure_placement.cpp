// One placement over every home class: the plans, the serial self-check of a
// concurrent schedule, and the choice of concurrency under --schedule (a
// pilot of the map's own rounds, checked against serial, before the map).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_set>

#include "run/line_correction.hpp"
#include "core/map_result.hpp"
#include "run/measure_placement.hpp"
#include "plan/planner.hpp"
#include "core/stats.hpp"
#include "core/units.hpp"
#include "serial_check.hpp"
#include "core/matrix.hpp"

namespace cumap {
namespace {

// Seconds since it was made, for PlacementResult::seconds.
class Stopwatch {
 public:
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

MeasurementPlan base_plan(const PlacementRequest& request, const StopFn& stop) {
  const Options& o = *request.options;
  MeasurementPlan plan;
  plan.stop = stop;  // asked inside long plans too (the cpu backend: within a sample)
  for (int u : request.units) plan.units.push_back(unit_ref(u, o.device));
  plan.counts = {request.iters, o.samples, o.warmup, o.ordered};
  plan.probe = o.probe;
  plan.timeout_ms = o.timeout_ms;
  // Every device's arena has the same layout (the dsm path has none).
  if (!request.homes->empty()) plan.arena = request.homes->front().arena;
  plan.path = o.via;
  plan.flush_cache = o.flush_cache;
  plan.l2_persist = o.l2_persist;
  return plan;
}

// Which pairs run together, and which device holds each pair's flags.
PairRounds pair_rounds(const PlacementRequest& request, const DeviceLinePools& pools) {
  const Options& o = *request.options;
  const std::vector<int>& units = request.units;
  PairRounds rounds;
  if (request.pairs_per_round <= 1) rounds = serial_rounds(units, o.ordered);
  else if (ids_span_devices(units))  // a map across devices: ids by unit_id()
    rounds = limit_rounds(device_rounds(units, o.ordered), request.pairs_per_round, request.exclusive_key);
  else rounds = limit_rounds(round_robin_rounds(units, o.ordered), request.pairs_per_round, request.exclusive_key);
  return cap_flags_per_device(place_flags(rounds, o.flag_on, o.device),
                              pairs_each_device_holds(pools, request.placement));
}

void add_stats(RunStats& sum, const RunStats& s) {
  sum.device_seconds += s.device_seconds;
  sum.host_seconds += s.host_seconds;
  sum.launches += s.launches;
  if (std::isfinite(s.clock_hz)) sum.clock_hz = s.clock_hz;
  if (!s.extra.empty()) sum.extra = s.extra;
  if (!s.cluster_barrier.empty()) sum.cluster_barrier = s.cluster_barrier;
}

// The planned pairs a resumed run still needs: those `done` lacks for this
// class and pass (timed-out ones are measured again). Rounds left empty go.
std::vector<Round> without_measured(std::vector<Round> rounds, const std::vector<PairStats>& done, int cls, int pass,
                                    int default_device) {
  if (done.empty()) return rounds;
  std::set<std::tuple<int, int, int>> have;  // a, b, the device that held the flags
  for (const PairStats& p : done)
    if (p.home_class == cls && p.pass == pass && !p.timed_out) have.emplace(p.a, p.b, p.flag_device);
  for (Round& round : rounds)
    std::erase_if(round.pairs, [&](const PlannedPair& p) {
      return have.contains({unit_id(p.a, default_device), unit_id(p.b, default_device), p.flags.device});
    });
  std::erase_if(rounds, [](const Round& round) { return round.pairs.empty(); });
  return rounds;
}

// The pairs of `rounds` a pass measures: those on one device if `on_device`,
// those across devices if `across` (rounds left empty go).
PairRounds rounds_in_pass(const PairRounds& rounds, bool on_device, bool across) {
  if (on_device && across) return rounds;
  PairRounds out;
  for (const auto& round : rounds) {
    std::vector<UnitPair> kept;
    for (const UnitPair& p : round)
      if ((device_of_id(p.a) == device_of_id(p.b)) ? on_device : across) kept.push_back(p);
    if (!kept.empty()) out.push_back(std::move(kept));
  }
  return out;
}

// Every (class, pass) plan of one placement at the request's concurrency,
// class-major; all their rounds in plan order (where the check samples); and
// the settings they share, without rounds (for the sample and the pilot).
struct PlacementPlans {
  int class_count = 1;
  int passes = 1;
  std::vector<MeasurementPlan> by_class_pass;
  std::vector<Round> all_rounds;
  MeasurementPlan settings;
};

PlacementPlans make_plans(const PlacementRequest& request, const StopFn& stop) {
  DeviceLinePools pools;
  for (const HomesResult& h : *request.homes)
    for (int c = 0; c < h.classes.class_count; ++c)
      pools[h.device].by_class.push_back(h.classes.lines_of(c, h.table.lines));
  const PairRounds rounds = pair_rounds(request, pools);
  PlacementPlans plans;
  // Inside a cluster the flags are in the partners' shared memory: L2 homes
  // and flag lines do not apply (no homes were found), and the path itself
  // decides which pairs it can reach, so one pass over the pairs says everything.
  const bool dsm = request.options->via == Path::Dsm;
  plans.class_count = dsm ? 1 : class_count(*request.homes);
  plans.passes = dsm ? 1 : std::max(request.lines_per_class, request.cross_lines);
  plans.settings = base_plan(request, stop);
  // The (class, pass) plans are independent: made on every core (across two
  // GPUs a placement's 48 plans hold ~800 000 pairs, 70 ms on one core while
  // the GPUs wait). An error leaves the parallel loop as a value.
  const int plan_count = plans.class_count * plans.passes;
  plans.by_class_pass.assign(static_cast<std::size_t>(plan_count), plans.settings);
  std::vector<std::exception_ptr> failed(static_cast<std::size_t>(plan_count));
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < plan_count; ++i) {
    const int c = i / plans.passes;
    const int pass = i % plans.passes;
    try {
      const int tag = PairTag{c, pass}.encode();
      // Pairs across devices take part in their first cross_lines passes,
      // the others in their first lines_per_class.
      const PairRounds in_pass =
          dsm ? rounds
              : rounds_in_pass(rounds, pass < request.lines_per_class, pass < request.cross_lines);
      plans.by_class_pass[static_cast<std::size_t>(i)].rounds = without_measured(
          dsm ? rounds_without_lines(in_pass, tag, request.options->device)
              : assign_lines(in_pass, pools, request.placement, c, pass, plans.passes, tag, request.options->device),
          request.already_measured, c, pass, request.options->device);
    } catch (...) {
      failed[static_cast<std::size_t>(i)] = std::current_exception();
    }
  }
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
  for (const MeasurementPlan& plan : plans.by_class_pass)
    plans.all_rounds.insert(plans.all_rounds.end(), plan.rounds.begin(), plan.rounds.end());
  return plans;
}

PairKey key_of(const PairMeasurement& m) { return {m.a, m.b, m.flags.device, m.flags.first, m.flags.second}; }
PairKey key_of(const PlannedPair& p) { return {p.a, p.b, p.flags.device, p.flags.first, p.flags.second}; }

// The check's sample, looked up once per measured value (~800 000 a class
// across two GPUs, while the GPU waits for the next class): hashed, since a
// tree's comparisons of five fields took a tenth of a second a class.
struct PairKeyHash {
  std::size_t operator()(const PairKey& k) const {
    const auto& [a, b, device, first, second] = k;
    std::size_t h = std::hash<std::uint64_t>{}(first) ^ (std::hash<std::uint64_t>{}(second) * 0x9e3779b97f4a7c15ULL);
    for (const int v : {a.device, a.unit, b.device, b.unit, device}) h = h * 31 + static_cast<std::size_t>(v);
    return h;
  }
};

using SampleKeys = std::unordered_set<PairKey, PairKeyHash>;
// A class's values as the backend returned them: one part per plan.
using ClassParts = std::vector<std::vector<PairMeasurement>>;

// The values of a class that belong to the check's sample, in their order:
// each value looked up on every core (~800 000 a class across two GPUs).
std::vector<PairMeasurement> sampled_values(std::shared_ptr<const ClassParts> parts,
                                            std::shared_ptr<const SampleKeys> keys) {
  std::vector<PairMeasurement> out;
  for (const std::vector<PairMeasurement>& part : *parts) {
    std::vector<char> in_sample(part.size(), 0);
    const auto count = static_cast<std::ptrdiff_t>(part.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < count; ++i)
      in_sample[static_cast<std::size_t>(i)] = keys->contains(key_of(part[static_cast<std::size_t>(i)])) ? 1 : 0;
    for (std::size_t i = 0; i < part.size(); ++i)
      if (in_sample[i]) out.push_back(part[i]);
  }
  return out;
}

// A plan of the placement measured: a pair across devices runs its own round
// trips on each line (PlacementRequest::cross_samples, cross_warmup), so
// where they differ from the map's the rounds go to the backend as two
// plans, those inside one device first (each round is of one kind:
// device_rounds). The parts come back in that order; a stop inside the
// first leaves the second unmeasured, as a stop leaves a plan's later rounds.
std::vector<Measurements> measure_parts(Backend& backend, MeasurementPlan plan, const PlacementRequest& request,
                                        const ProgressFn& progress) {
  protocol::Counts across = plan.counts;
  across.samples = request.cross_samples.value_or(across.samples);
  across.warmup = request.cross_warmup.value_or(across.warmup);
  const auto spans_devices = [](const Round& round) {
    return std::any_of(round.pairs.begin(), round.pairs.end(),
                       [](const PlannedPair& p) { return p.a.device != p.b.device; });
  };
  std::vector<Measurements> parts;
  if ((across.samples == plan.counts.samples && across.warmup == plan.counts.warmup) ||
      std::none_of(plan.rounds.begin(), plan.rounds.end(), spans_devices)) {
    parts.push_back(backend.measure(plan, progress));
    return parts;
  }

  std::vector<Round> rounds = std::move(plan.rounds);
  plan.rounds.clear();
  MeasurementPlan over = plan;  // the settings: its rounds follow
  over.counts = across;
  for (Round& round : rounds) (spans_devices(round) ? over.rounds : plan.rounds).push_back(std::move(round));
  const std::size_t total = plan.rounds.size() + over.rounds.size();
  const auto from = [&](std::size_t before) -> ProgressFn {
    if (!progress) return {};
    return [&progress, before, total](std::size_t done, std::size_t) { progress(before + done, total); };
  };
  if (!plan.rounds.empty()) {
    parts.push_back(backend.measure(plan, from(0)));
    if (parts.back().stopped) return parts;
  }
  parts.push_back(backend.measure(over, from(plan.rounds.size())));
  return parts;
}

// The same as one Measurements: the check's sample and the pilot (a few
// hundred pairs; a class stays in parts).
Measurements measure_rounds(Backend& backend, MeasurementPlan plan, const PlacementRequest& request,
                            const ProgressFn& progress) {
  std::vector<Measurements> parts = measure_parts(backend, std::move(plan), request, progress);
  Measurements out = std::move(parts.front());
  for (std::size_t i = 1; i < parts.size(); ++i) {
    out.pairs.insert(out.pairs.end(), std::make_move_iterator(parts[i].pairs.begin()),
                     std::make_move_iterator(parts[i].pairs.end()));
    add_stats(out.stats, parts[i].stats);
    out.stopped = parts[i].stopped;
  }
  return out;
}

// The sample's per-pair medians, measured one pair at a time now; nullopt
// when the stop request cut the measuring short.
std::optional<std::map<PairKey, double>> measure_serially(Backend& backend, const MeasurementPlan& sample,
                                                          const PlacementRequest& request) {
  const Measurements m = measure_rounds(backend, sample, request, {});
  if (m.stopped) return std::nullopt;
  return pair_medians(m);
}

// The check's sample of `plans`, measured serially now (before what it
// checks); its medians stay empty when the stop request came.
SerialSample measure_sample(Backend& backend, const PlacementPlans& plans, const PlacementRequest& request) {
  SerialSample sample;
  sample.plan = plans.settings;
  sample.plan.rounds = serial_check_sample(plans.all_rounds, static_cast<std::size_t>(request.options->check_pairs));
  sample.before = measure_serially(backend, sample.plan, request).value_or(std::map<PairKey, double>{});
  sample.earlier_serial_repeat = request.earlier_serial_repeat;
  return sample;
}

// A pilot of one concurrency and what the map needs if it passes: the plans
// (the same rounds and lines the pilot ran) and the sample, whose serial run
// after the pilot is the map's serial run before.
struct Pilot {
  SelfCheck check;
  PlacementPlans plans;
  SerialSample sample;
  bool stopped = false;  // the stop request came: no check (a resumed run measures the map)
  double seconds = 0.0;
};

// Only the map's rounds that hold the sample, as planned, between two serial
// runs of the sample.
Pilot run_pilot(Backend& backend, const PlacementRequest& request, const StopFn& stop) {
  const Stopwatch watch;
  Pilot pilot;
  pilot.plans = make_plans(request, stop);
  pilot.sample = measure_sample(backend, pilot.plans, request);
  MeasurementPlan pilot_plan = pilot.plans.settings;
  pilot_plan.rounds = pilot_rounds(pilot.plans.all_rounds, static_cast<std::size_t>(request.options->check_pairs));
  const Measurements measured = measure_rounds(backend, std::move(pilot_plan), request, {});
  std::optional<std::map<PairKey, double>> after = measure_serially(backend, pilot.sample.plan, request);
  pilot.stopped = measured.stopped || !after || (stop && stop());
  pilot.seconds = watch.seconds();
  if (pilot.stopped) return pilot;
  pilot.check =
      judge_serial_check(pilot.sample, *after, measured, request.pairs_per_round, request.options->check_max_rel_diff);
  pilot.check.pilot = true;
  pilot.sample.before = std::move(*after);
  pilot.sample.earlier_serial_repeat =
      std::max(pilot.sample.earlier_serial_repeat, pilot.check.serial_repeat.median_rel_diff);
  return pilot;
}

// One placement over plans made already, with the check's sample
// measured already where `sample` holds it; the maps summarized beside
// whatever the caller does next.
PendingPlacement measure_plans(Backend& backend, const PlacementRequest& request, PlacementPlans plans,
                               std::optional<SerialSample> sample, const ProgressFn& progress, const StopFn& stop) {
  // On the heap: the summaries fill it in on their own thread, beside the
  // check after the map and beside whatever the caller measures next.
  auto state = std::make_shared<PlacementResult>();
  PlacementResult& result = *state;
  result.placement = request.placement;
  result.pairs_per_round = request.pairs_per_round;

  // A concurrent placement measures its serial check sample before the
  // passes and again after them; the passes keep only the sample's values.
  auto sample_keys = std::make_shared<SampleKeys>();
  if (request.pairs_per_round > 1 && !plans.all_rounds.empty()) {
    const Stopwatch watch;
    if (!sample) sample = measure_sample(backend, plans, request);
    result.seconds.checks += watch.seconds();
    for (const Round& round : sample->plan.rounds) sample_keys->insert(key_of(round.pairs.front()));
  }

  // Flags in shared memory (dsm) have no line in the home table.
  std::shared_ptr<const LineCorrection> correction;
  if (request.options->line_correction && request.options->via != Path::Dsm)
    correction = std::make_shared<const LineCorrection>(*request.homes);

  // Each class's map is summarized while the next class is measured (on
  // the host, while a GPU measures), then collected in class order; where
  // the measuring uses the host's cores, only once it is done (deferred).
  // The tasks own what they read: they may outlive this call.
  const std::launch when = request.measures_on_host_cores ? std::launch::deferred : std::launch::async;
  const MapSpec headline_spec{request.placement, MapSpec::kAllClasses, request.units, request.options->ordered,
                              request.iters};
  std::vector<std::future<LatencyMap>> class_maps;
  const auto summarize_class = [headline_spec, correction](std::shared_ptr<const ClassParts> parts,
                                                           std::vector<PairStats> earlier, int c) {
    MapSpec spec = headline_spec;
    spec.home_class = c;
    LatencyMap map = summarize_measurements(
        *parts, spec, [](int tag) { return PairTag::decode(tag).home_class; },
        [](int tag) { return PairTag::decode(tag).pass; });
    map.pairs.insert(map.pairs.end(), earlier.begin(), earlier.end());
    if (correction) apply_line_correction(map, *correction);
    return map;
  };

  // One plan per class, its passes' rounds one after another: the backend
  // cuts it into launches of its own size (fewer than one per pass) and, on
  // a GPU, decodes each launch while the next one runs. What a class's
  // values are used for (the maps, the check's sample among them) is done
  // beside the next class's measuring: between two classes the GPUs wait.
  std::vector<std::future<std::vector<PairMeasurement>>> class_samples;
  std::size_t rounds_before = 0;  // in earlier classes, for the progress
  std::size_t all_rounds = 0;
  for (const MeasurementPlan& plan : plans.by_class_pass) all_rounds += plan.rounds.size();
  const Stopwatch measuring;
  for (int c = 0; c < plans.class_count; ++c) {
    if (result.complete && stop && stop()) result.complete = false;
    std::vector<PairStats> earlier;  // --resume: this class's pairs an earlier run measured
    for (const PairStats& p : request.already_measured)
      if (p.home_class == c) earlier.push_back(p);
    // After a stop, a class is still summarized where an earlier run (being
    // resumed) measured some of it: those pairs stay in the output set.
    if (!result.complete && earlier.empty()) continue;
    MeasurementPlan plan = plans.settings;
    for (int pass = 0; pass < plans.passes; ++pass) {
      // Moved, not copied: each pass's rounds serve this class's plan only.
      MeasurementPlan& one = plans.by_class_pass[static_cast<std::size_t>(c * plans.passes + pass)];
      plan.rounds.insert(plan.rounds.end(), std::make_move_iterator(one.rounds.begin()),
                         std::make_move_iterator(one.rounds.end()));
    }
    const std::size_t class_rounds = plan.rounds.size();
    auto parts = std::make_shared<ClassParts>();
    if (result.complete && !plan.rounds.empty()) {
      for (Measurements& part : measure_parts(backend, std::move(plan), request, [&](std::size_t d, std::size_t) {
             if (progress) progress(rounds_before + d, all_rounds);
           })) {
        add_stats(result.stats, part.stats);
        // Stopped inside the plan: what it finished is kept, the rest is missing.
        if (part.stopped) result.complete = false;
        parts->push_back(std::move(part.pairs));
      }
      if (!sample_keys->empty()) class_samples.push_back(std::async(when, sampled_values, parts, sample_keys));
    }
    rounds_before += class_rounds;
    class_maps.push_back(std::async(when, summarize_class, std::move(parts), std::move(earlier), c));
  }
  result.seconds.measuring += measuring.seconds();

  // The maps of every class and the headline: they and the check below
  // write different members of the result.
  std::future<void> summaries =
      std::async(when, [state, headline_spec, class_maps = std::move(class_maps),
                        made = request.class_maps_made]() mutable {
        for (std::future<LatencyMap>& map : class_maps) state->per_class.push_back(map.get());
        // The class maps handed over beside the headline's summary: both
        // only read them (across two GPUs each takes a tenth of a second or more).
        std::future<void> handed;
        if (made) handed = std::async(std::launch::async, [&] { made(state->placement, state->per_class); });
        summarize_placement(*state, headline_spec);
        if (handed.valid()) handed.get();
      });

  if (sample && result.complete && !class_samples.empty()) {
    const Stopwatch watch;
    const auto after = measure_serially(backend, sample->plan, request);
    Measurements sampled;
    for (auto& values : class_samples) {
      std::vector<PairMeasurement> some = values.get();
      sampled.pairs.insert(sampled.pairs.end(), std::make_move_iterator(some.begin()),
                           std::make_move_iterator(some.end()));
    }
    if (after && !sampled.pairs.empty())
      result.checks.push_back(judge_serial_check(*sample, *after, sampled, request.pairs_per_round,
                                                 request.options->check_max_rel_diff));
    result.seconds.checks += watch.seconds();
  }
  return PendingPlacement(std::move(state), std::move(summaries));
}

}  // namespace

PlacementResult PendingPlacement::finish() && {
  // What the measuring did not hide: on the host's cores, every summary.
  const Stopwatch waiting;
  summaries_.get();
  result_->seconds.summaries += waiting.seconds();
  return std::move(*result_);
}

PendingPlacement start_placement(Backend& backend, PlacementRequest request, const ProgressFn& progress,
                                 const StopFn& stop) {
  const ScheduleKind kind = request.options->schedule;
  if (kind == ScheduleKind::Serial) request.pairs_per_round = 1;
  std::vector<SelfCheck> tried;
  PlacementResult::Seconds spent;  // by pilots and by maps measured again
  // Auto: pilots choose the concurrency, halving it until one passes; the
  // whole map is then measured once, on the passing pilot's plans and sample
  // (and checks itself again).
  std::optional<Pilot> passing;
  if (kind == ScheduleKind::Auto && !request.concurrency_settled)
    for (; request.pairs_per_round > 1 && !(stop && stop()); request.pairs_per_round /= 2) {
      Pilot pilot = run_pilot(backend, request, stop);
      spent.checks += pilot.seconds;
      if (pilot.stopped) break;
      tried.push_back(pilot.check);
      if (pilot.check.passed) {
        passing = std::move(pilot);
        break;
      }
    }
  for (;;) {
    PendingPlacement pending =
        passing ? measure_plans(backend, request, std::move(passing->plans), std::move(passing->sample), progress, stop)
                : measure_plans(backend, request, make_plans(request, stop), std::nullopt, progress, stop);
    passing.reset();
    // Only what measuring and checking wrote: the maps are still being made.
    PlacementResult& result = pending.measured();
    tried.insert(tried.end(), result.checks.begin(), result.checks.end());
    result.checks = tried;
    spent.measuring += result.seconds.measuring;
    spent.checks += result.seconds.checks;
    result.seconds = spent;
    if (!result.complete) return pending;
    const bool passed = result.checks.empty() || result.checks.back().passed;
    // A map whose own check fails after a passing pilot (the chip changed
    // while it ran) is measured again at half the concurrency.
    if (kind != ScheduleKind::Auto || passed || request.pairs_per_round <= 1) return pending;
    request.pairs_per_round /= 2;
  }
}

}  // namespace cumap
