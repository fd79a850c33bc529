#include "plan/sync_plan.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "core/units.hpp"
#include "cumap/error.hpp"
#include "plan/sync_checks.hpp"
#include "core/stats.hpp"
#include "core/topology.hpp"

namespace cumap {
namespace {

// Each list's units in turn: the first of every list, then the second, ...
std::vector<int> interleave(const std::vector<std::vector<int>>& lists) {
  std::vector<int> out;
  for (std::size_t i = 0;; ++i) {
    bool any = false;
    for (const auto& list : lists)
      if (i < list.size()) {
        out.push_back(list[i]);
        any = true;
      }
    if (!any) return out;
  }
}

// Units by side, each side's by id; sides in label order.
std::vector<std::vector<int>> by_side(const std::vector<int>& units, const std::vector<int>& side) {
  std::map<int, std::vector<int>> sides;
  for (std::size_t i = 0; i < units.size(); ++i) sides[side[i]].push_back(units[i]);
  std::vector<std::vector<int>> out;
  for (auto& [s, members] : sides) out.push_back(std::move(members));
  return out;
}

std::vector<std::vector<int>> by_group(const Topology& topology) {
  std::vector<std::vector<int>> out;
  for (const UnitGroup& g : topology.groups) {
    std::vector<int> members = g.units;
    std::sort(members.begin(), members.end());
    if (!members.empty()) out.push_back(std::move(members));
  }
  return out;
}

const std::vector<int>& largest(const std::vector<std::vector<int>>& lists) {
  return *std::max_element(lists.begin(), lists.end(),
                           [](const auto& a, const auto& b) { return a.size() < b.size(); });
}

// 0..n-1 in bit-reversed order of their index: every prefix is spread
// evenly over the range (0, n/2, n/4, 3n/4, ...).
std::vector<int> evenly_spread(const std::vector<int>& units) {
  const unsigned bits = std::bit_width(std::max<std::size_t>(units.size(), 1) - 1);
  std::vector<std::pair<unsigned, int>> keyed;
  for (std::size_t i = 0; i < units.size(); ++i) {
    unsigned reversed = 0;
    for (unsigned b = 0; b < bits; ++b) reversed |= ((static_cast<unsigned>(i) >> b) & 1u) << (bits - 1 - b);
    keyed.emplace_back(reversed, units[i]);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<int> out;
  for (const auto& [key, unit] : keyed) out.push_back(unit);
  return out;
}

// Row of each unit id in the home table.
std::map<int, std::size_t> table_rows(const HomesResult& homes) {
  std::map<int, std::size_t> rows;
  for (std::size_t i = 0; i < homes.unit_ids.size(); ++i) rows[homes.unit_ids[i]] = i;
  return rows;
}

// Mean latency (ns) of every line over the participants.
std::vector<double> mean_latency(const std::vector<int>& participants, const HomesResult& homes) {
  const std::map<int, std::size_t> rows = table_rows(homes);
  const LineLatencyTable& t = homes.table;
  std::vector<double> mean(t.lines.size(), 0.0);
  for (std::size_t l = 0; l < t.lines.size(); ++l) {
    double sum = 0;
    int n = 0;
    for (int u : participants) {
      const auto row = rows.find(u);
      if (row == rows.end()) throw UsageError(fmt::format("unit {} is not in the home table", u));
      const double v = t.ns_at(row->second, l);
      if (std::isfinite(v)) {
        sum += v;
        ++n;
      }
    }
    mean[l] = n > 0 ? sum / n : std::numeric_limits<double>::infinity();
  }
  return mean;
}

// The participants' groups for a two-level barrier: by GPU where they span
// two GPUs or more, else by side where they span two sides or more, else by
// topology group; empty where they are all in one.
struct TwoLevelGroups {
  std::vector<int> group_of;  // per participant; groups numbered by first appearance
  int count = 0;
  std::string by;
};
TwoLevelGroups two_level_groups(const std::vector<int>& participants, const std::map<int, int>& device_of,
                                const std::map<int, int>& side_of, const std::map<int, int>& group_of_unit) {
  for (const auto* key : {&device_of, &side_of, &group_of_unit}) {
    TwoLevelGroups g;
    std::map<int, int> number;
    for (int u : participants) {
      const auto it = key->find(u);
      const int k = it == key->end() ? -1 : it->second;
      const auto [at, added] = number.emplace(k, static_cast<int>(number.size()));
      g.group_of.push_back(at->second);
    }
    g.count = static_cast<int>(number.size());
    g.by = key == &device_of ? "gpu" : key == &side_of ? "side" : "group";
    if (g.count >= 2) return g;
  }
  return {};
}

// What a home class's lines cost on average: over the participants, and to
// the first participant alone (which breaks ties).
struct ClassCost {
  int home_class;
  double participants;
  double first;
};
std::vector<ClassCost> class_costs(const std::vector<double>& mean, const std::vector<double>& first_mean,
                                   const std::vector<int>& line_class) {
  std::map<int, std::array<double, 3>> sums;  // class -> {participants, first, lines}
  for (std::size_t l = 0; l < mean.size(); ++l)
    if (std::isfinite(mean[l]) && std::isfinite(first_mean[l])) {
      std::array<double, 3>& s = sums[line_class[l]];
      s[0] += mean[l];
      s[1] += first_mean[l];
      s[2] += 1;
    }
  std::vector<ClassCost> out;
  for (const auto& [c, s] : sums) out.push_back({c, s[0] / s[2], s[1] / s[2]});
  if (out.empty()) throw UsageError("home discovery timed no line for these units: there is no line to put a counter in");
  return out;
}

// Classes whose average over the participants is within this share of the
// best (or worst) one are alike for them: a set split evenly over two sides
// finds both classes within a few tenths of a percent, whichever wins by the
// table's noise in one run. Among alike classes the one nearest (farthest
// from) the first participant is taken, so that a repeat run chooses the
// same class.
constexpr double kAlikeClasses = 0.01;

// The nearest class for the participants (`nearest`), or the farthest other
// than `except`.
int pick_class(const std::vector<ClassCost>& costs, bool nearest, int except) {
  const double sign = nearest ? 1.0 : -1.0;
  double best = std::numeric_limits<double>::infinity();
  for (const ClassCost& c : costs)
    if (c.home_class != except) best = std::min(best, sign * c.participants);
  const ClassCost* pick = nullptr;
  for (const ClassCost& c : costs)
    if (c.home_class != except && sign * c.participants <= best + kAlikeClasses * std::abs(best) &&
        (!pick || sign * c.first < sign * pick->first))
      pick = &c;
  return pick ? pick->home_class : costs.front().home_class;
}

// `ranked` in the order launches take them: in pairs of neighbours (a launch
// takes a counter and a release line), the typical pair first, then pairs
// in couples mirrored about it, each level halving the gaps of the one
// before (1/4 and 3/4 of the ranks, then 1/8 and 7/8, 3/8 and 5/8, ...).
// However many launches a case has, its lines then stand for the whole
// class, an odd number of launches centred on its typical line, rather than
// for its fastest or slowest lines: a barrier's cost follows its line's L2
// slice, which the table of homes ranks only roughly.
std::vector<std::size_t> spread_over_ranks(const std::vector<std::size_t>& ranked) {
  const std::size_t pairs = (ranked.size() + 1) / 2;
  std::vector<std::size_t> order;
  std::vector<bool> used(pairs, false);
  const auto take = [&](std::size_t p) {
    if (p < pairs && !used[p]) {
      used[p] = true;
      order.push_back(p);
    }
  };
  take(pairs / 2);
  for (std::size_t strata = 4; strata <= 4 * pairs; strata *= 2) {
    std::vector<int> lower;  // odd numerators j < strata / 2: the points j / strata below the middle
    for (std::size_t j = 1; j < strata / 2; j += 2) lower.push_back(static_cast<int>(j));
    for (int j : evenly_spread(lower)) {
      const std::size_t p = static_cast<std::size_t>(j) * pairs / strata;
      take(p);
      take(pairs - 1 - p);
    }
  }
  for (std::size_t p = 0; p < pairs; ++p) take(p);
  std::vector<std::size_t> out;
  for (std::size_t p : order)
    for (std::size_t r = 2 * p; r < std::min(2 * p + 2, ranked.size()); ++r) out.push_back(ranked[r]);
  return out;
}

// Lines a case has taken: (device, byte offset).
using TakenLines = std::set<std::pair<int, std::uint64_t>>;

// Takes the first line of `choice` (lines of `device`) not yet used by the case.
std::uint64_t take_line(const LineChoice& choice, int device, TakenLines& taken) {
  for (std::uint64_t line : choice.lines)
    if (taken.insert({device, line}).second) return line;
  throw UsageError(fmt::format("the flag arena has {} lines, too few for one case's counters and flags (raise "
                               "--home-lines)",
                               choice.lines.size()));
}

std::string k_list(const std::vector<int>& ks) {
  std::string s;
  for (int k : ks) s += (s.empty() ? "" : ",") + std::to_string(k);
  return s;
}

}  // namespace

ParticipantOrder participant_order(ParticipantSet set, const std::vector<int>& units, const std::vector<int>& side,
                                   const Topology& topology) {
  const std::vector<std::vector<int>> sides = by_side(units, side);
  const std::vector<std::vector<int>> groups = by_group(topology);
  switch (set) {
    case ParticipantSet::OneSide: return {largest(sides), ""};
    case ParticipantSet::Alternating:
      if (sides.size() < 2) return {{}, "alternating: home discovery found one side, so it is one-side's set"};
      return {interleave(sides), ""};
    case ParticipantSet::OneGroup:
      if (groups.empty()) return {{}, fmt::format("one-gpc: the topology ({}) has no groups", topology.source)};
      return {largest(groups), ""};
    case ParticipantSet::Spread:
      if (groups.size() >= 2) return {interleave(groups), ""};
      if (sides.size() >= 2) return {interleave(sides), ""};
      return {evenly_spread(units), ""};
  }
  return {};
}

std::vector<int> k_values(const KSweep& sweep, int set_size, int smallest) {
  std::set<int> ks;
  if (sweep.doubling)
    for (int k = smallest; k < set_size; k = k == 1 ? 2 : 2 * k) ks.insert(k);
  for (int k : sweep.values)
    if (k >= smallest && k <= set_size) ks.insert(k);
  if (sweep.every_unit && set_size >= smallest) ks.insert(set_size);
  return {ks.begin(), ks.end()};
}

void check_k_sweep(const KSweep& sweep, std::size_t units, bool contention) {
  const int smallest = contention ? 1 : 2;
  for (int k : sweep.values) {
    if (k < smallest)
      throw UsageError(fmt::format("--k {}: a barrier needs at least two participants", k));
    if (static_cast<std::size_t>(k) > units)
      throw UsageError(fmt::format("--k {}: more participants than the {} unit(s) this run has (--units)", k, units));
  }
}

LineChoice counter_lines(const std::vector<int>& participants, CounterHome home, const HomesResult& homes) {
  const std::vector<double> mean = mean_latency(participants, homes);
  const std::vector<int>& line_class = homes.classes.line_class;
  if (mean.empty()) throw UsageError("home discovery probed no lines: there is no line to put a counter in");
  const std::vector<ClassCost> costs = class_costs(mean, mean_latency({participants.front()}, homes), line_class);
  const int near_class = pick_class(costs, true, -1);

  LineChoice choice;
  choice.label = homes.classes.class_count < 2 ? "any" : to_string(home);
  choice.home_class = home == CounterHome::Near || costs.size() < 2 ? near_class : pick_class(costs, false, near_class);
  // The lines in (or outside) the chosen class, fastest for the participants first.
  const auto fastest_first = [&](bool in_class) {
    std::vector<std::size_t> out;
    for (std::size_t l = 0; l < mean.size(); ++l)
      if ((line_class[l] == choice.home_class) == in_class) out.push_back(l);
    std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) { return mean[a] < mean[b]; });
    return out;
  };
  for (std::size_t l : spread_over_ranks(fastest_first(true))) choice.lines.push_back(homes.table.lines[l]);
  for (std::size_t l : fastest_first(false)) choice.lines.push_back(homes.table.lines[l]);
  return choice;
}

ParticipantOrder participant_order(ParticipantSet set, const RunHomes& homes, const Topology& topology) {
  if (homes.size() == 1) {
    const HomesResult& h = homes.front();
    return participant_order(set, h.unit_ids, h.classes.unit_side, topology);
  }
  std::vector<std::vector<int>> per_gpu;
  for (const HomesResult& h : homes) {
    if (h.unit_ids.empty()) continue;
    ParticipantOrder one =
        participant_order(set, h.unit_ids, h.classes.unit_side, restrict_topology(topology, h.unit_ids));
    if (one.units.empty()) return {{}, fmt::format("GPU {}: {}", h.device, one.left_out)};
    per_gpu.push_back(std::move(one.units));
  }
  return {interleave(per_gpu), ""};
}

PlannedSync plan_sync(const SyncOptions& o, const HomesResult& homes, const Topology& topology) {
  return plan_sync(o, RunHomes{homes}, topology);
}

PlannedSync plan_sync(const SyncOptions& o, const RunHomes& homes, const Topology& topology) {
  if (homes.empty()) throw UsageError("barriers and contention choose their lines by home discovery, which found none");
  PlannedSync out;
  out.plan.probe = o.common.probe;
  out.plan.timeout_ms = o.common.timeout_ms;
  out.plan.arena = homes.front().arena;  // every device's arena has this layout

  // Across GPUs ids are unit_id()s of a run whose default device is 0.
  const bool across = homes.size() > 1;
  const int default_device = across ? 0 : homes.front().device;
  const auto homes_of = [&homes](int device) -> const HomesResult& {
    for (const HomesResult& h : homes)
      if (h.device == device) return h;
    throw UsageError(fmt::format("home discovery has no table of device {}", device));
  };
  std::map<int, int> device_of, side_of, group_of_unit;
  for (const HomesResult& h : homes)
    for (std::size_t i = 0; i < h.unit_ids.size(); ++i) {
      device_of[h.unit_ids[i]] = h.device;
      side_of[h.unit_ids[i]] = h.classes.unit_side[i];
    }
  for (std::size_t g = 0; g < topology.groups.size(); ++g)
    for (int u : topology.groups[g].units) group_of_unit[u] = static_cast<int>(g);
  const int smallest = o.contention ? 1 : 2;
  const auto launches = static_cast<std::size_t>(std::max(o.launches.value_or(1), 1));
  std::map<std::pair<int, std::uint64_t>, int> class_of_line;  // (device, offset)
  for (const HomesResult& h : homes)
    for (std::size_t l = 0; l < h.table.lines.size(); ++l)
      class_of_line[{h.device, h.table.lines[l]}] = h.classes.line_class.at(l);
  // The lines one launch of a case takes, in a fixed order: every case takes
  // a counter and a release line (used or not), two-level its groups' lines;
  // leaders that meet by exchange take no case lines but their groups'.
  const auto lines_of = [](const SyncCase& c) {
    if (!c.group_exchange.empty()) return sync_case_sites(c);
    std::vector<SyncWordSite> lines{{c.counter_gpu, c.counter}, {c.counter_gpu, c.release}};
    for (const auto* group_lines : {&c.group_counter, &c.group_release})
      for (std::size_t g = 0; g < group_lines->size(); ++g) lines.push_back({group_gpu_of(c, g), (*group_lines)[g]});
    return lines;
  };
  const auto classes_of = [&](const SyncCase& c) {
    std::vector<int> classes;
    for (const SyncWordSite& w : lines_of(c)) classes.push_back(class_of_line[{w.device, w.offset}]);
    return classes;
  };
  // Whether a launch needing `needed` lines no longer finds fresh ones of a device.
  const auto out_of_lines = [&](const TakenLines& taken, const std::vector<SyncWordSite>& needed) {
    for (const SyncWordSite& w : needed) {
      std::size_t used = 0, more = 0;
      for (const auto& [device, line] : taken) used += device == w.device;
      for (const SyncWordSite& n : needed) more += n.device == w.device;
      if (used + more > homes_of(w.device).table.lines.size()) return true;
    }
    return false;
  };
  const auto gpu_name = [across](int device) { return across ? fmt::format("g{}", device) : std::string(); };
  // Launch-major: every case's first launch, then every case's second, ...
  // so that a case's launches are spread over the run, as a repeat run's are.
  std::vector<std::vector<SyncCase>> by_launch(launches);

  std::vector<std::vector<int>> orders_seen;
  std::map<std::string, std::vector<int>> single_group;  // two-level left out: set -> k
  for (ParticipantSet set : o.sets) {
    const std::string set_name(to_string(set));
    ParticipantOrder order = participant_order(set, homes, topology);
    const auto same = std::find(orders_seen.begin(), orders_seen.end(), order.units);
    if (order.units.empty() || same != orders_seen.end()) {
      if (order.left_out.empty())
        order.left_out = fmt::format("{}: the same units in the same order as {} here", set_name,
                                     to_string(o.sets[static_cast<std::size_t>(same - orders_seen.begin())]));
      out.notes.push_back(order.left_out);
      orders_seen.emplace_back();  // keeps orders_seen parallel to o.sets
      continue;
    }
    orders_seen.push_back(order.units);
    const std::vector<int> ks = k_values(o.k, static_cast<int>(order.units.size()), smallest);
    if (ks.empty())
      out.notes.push_back(fmt::format("{}: {} unit(s), fewer than the k asked for", set_name, order.units.size()));
    for (int k : ks) {
      const std::vector<int> members(order.units.begin(), order.units.begin() + k);
      SyncCase base;
      base.contention = o.contention;
      for (int u : members) base.participants.push_back(unit_ref(u, default_device));
      base.episodes = o.episodes;
      base.warmup = o.warmup;
      base.ops_per_batch = o.ops_per_batch;
      // One label, and its launches each on the next unused lines of the
      // label's choices (`lines` puts one launch's lines into a case).
      const auto add_case = [&](const SyncCase& c, SyncCaseLabel label, const auto& lines) {
        const int tag = static_cast<int>(out.labels.size());
        out.labels.push_back(std::move(label));
        // Where the arena, or a home class, has too few lines for fresh ones
        // in every launch, a launch takes the first launch's lines again
        // (each launch starts its words from 0) rather than another class's.
        TakenLines taken;
        std::vector<SyncWordSite> first_lines;
        std::vector<int> first_classes;  // of the first launch's lines
        for (std::vector<SyncCase>& launch : by_launch) {
          SyncCase one = c;
          one.tag = tag;
          if (!first_lines.empty() && out_of_lines(taken, first_lines)) taken.clear();
          lines(one, taken);
          if (first_lines.empty()) {
            first_lines = lines_of(one);
            first_classes = classes_of(one);
          } else if (classes_of(one) != first_classes) {
            taken.clear();
            lines(one, taken);
          }
          launch.push_back(std::move(one));
        }
      };
      // Where this k's counters can go, the same for every implementation:
      // on each GPU of the participants, chosen by those on it.
      std::map<int, std::vector<int>> members_on;  // device -> its participants
      for (int u : members) members_on[device_of.at(u)].push_back(u);
      std::map<int, std::pair<LineChoice, LineChoice>> choices;  // device -> near, far
      for (const auto& [device, on] : members_on)
        choices.emplace(device, std::pair(counter_lines(on, CounterHome::Near, homes_of(device)),
                                          counter_lines(on, CounterHome::Far, homes_of(device))));
      const auto choice_of = [&](int device, CounterHome h) -> const LineChoice& {
        const auto& [near, far] = choices.at(device);
        return h == CounterHome::Near ? near : far;
      };
      const auto homed = [&](SyncCase c, const TwoLevelGroups* groups) {
        // Each group's own counter and release: near the group, whatever the leaders' home.
        std::vector<LineChoice> group_lines;
        std::vector<std::vector<int>> group_members;
        if (groups) {
          c.group_of = groups->group_of;
          for (int g = 0; g < groups->count; ++g) {
            std::vector<int>& in_group = group_members.emplace_back();
            for (std::size_t p = 0; p < members.size(); ++p)
              if (groups->group_of[p] == g) in_group.push_back(members[p]);
            group_lines.push_back(counter_lines(in_group, CounterHome::Near, homes_of(device_of.at(in_group.front()))));
          }
        }
        if (groups && groups->by == "gpu") {
          // Every group's lines, its exchange counter too, on its own GPU.
          for (const std::vector<int>& g : group_members) c.group_gpu.push_back(device_of.at(g.front()));
          c.counter_gpu = c.group_gpu.front();
          std::vector<std::string> done;
          for (CounterHome h : o.homes) {
            std::vector<LineChoice> exchange;
            for (std::size_t g = 0; g < group_members.size(); ++g)
              exchange.push_back(counter_lines(group_members[g], h, homes_of(c.group_gpu[g])));
            if (std::find(done.begin(), done.end(), exchange.front().label) != done.end()) continue;
            done.push_back(exchange.front().label);
            SyncCaseLabel label{set_name, k, exchange.front().label, exchange.front().home_class, groups->count,
                                groups->by, "each"};
            add_case(c, label, [&, exchange](SyncCase& one, TakenLines& taken) {
              one.group_counter.clear();
              one.group_release.clear();
              one.group_exchange.clear();
              for (std::size_t g = 0; g < group_lines.size(); ++g) {
                one.group_counter.push_back(take_line(group_lines[g], one.group_gpu[g], taken));
                one.group_release.push_back(take_line(group_lines[g], one.group_gpu[g], taken));
                one.group_exchange.push_back(take_line(exchange[g], one.group_gpu[g], taken));
              }
              one.counter = one.group_exchange.front();
            });
          }
          return;
        }
        for (const auto& member : members_on) {
          // Named, not a structured binding: clang 14 cannot capture one in the lambda below.
          const int device = member.first;
          std::vector<std::string> done;  // "any" once where near and far are one class
          for (CounterHome h : o.homes) {
            const LineChoice& choice = choice_of(device, h);
            if (std::find(done.begin(), done.end(), choice.label) != done.end()) continue;
            done.push_back(choice.label);
            SyncCaseLabel label{set_name, k, choice.label, choice.home_class, 0, "", gpu_name(device)};
            if (groups) {
              label.groups = groups->count;
              label.grouped_by = groups->by;
            }
            c.counter_gpu = device;
            add_case(c, label, [&](SyncCase& one, TakenLines& taken) {
              one.counter = take_line(choice, device, taken);
              one.release = take_line(choice, device, taken);
              one.group_counter.clear();
              one.group_release.clear();
              // Groups of one GPU, this one: group_gpu stays empty (counter_gpu).
              for (const LineChoice& group_near : group_lines) {
                one.group_counter.push_back(take_line(group_near, device, taken));
                one.group_release.push_back(take_line(group_near, device, taken));
              }
            });
          }
        }
      };
      if (o.contention) {
        for (ContentionOp op : o.ops) {
          SyncCase c = base;
          c.op = op;
          homed(c, nullptr);
        }
        continue;
      }
      for (BarrierImpl impl : o.impls) {
        SyncCase c = base;
        c.impl = impl;
        if (impl == BarrierImpl::Platform) {
          // The platform's barrier keeps its own state: no counter of ours to place.
          const int device = base.participants.front().device;
          c.counter_gpu = device;
          add_case(c, SyncCaseLabel{set_name, k, "own", -1, 0, "", ""}, [&](SyncCase& one, TakenLines& taken) {
            one.counter = take_line(choice_of(device, CounterHome::Near), device, taken);
            one.release = take_line(choice_of(device, CounterHome::Near), device, taken);
          });
        } else if (impl == BarrierImpl::TwoLevel) {
          const TwoLevelGroups groups = two_level_groups(members, device_of, side_of, group_of_unit);
          if (groups.count < 2) {
            single_group[set_name].push_back(k);
            continue;
          }
          homed(c, &groups);
        } else {
          homed(c, nullptr);
        }
      }
    }
  }
  for (std::vector<SyncCase>& launch : by_launch)
    std::move(launch.begin(), launch.end(), std::back_inserter(out.plan.cases));
  for (const auto& [set_name, ks] : single_group)
    out.notes.push_back(fmt::format("two-level: {} at k={}: the participants are in one side and one topology "
                                    "group, so there are no two levels",
                                    set_name, k_list(ks)));
  if (out.plan.cases.empty()) {
    std::string why;
    for (const std::string& n : out.notes) why += "; " + n;
    throw UsageError("nothing to measure with these units and choices" + why);
  }
  return out;
}

}  // namespace cumap
