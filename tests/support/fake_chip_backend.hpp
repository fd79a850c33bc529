#pragma once
// A Backend that behaves like a chip with home classes, for testing the map
// engine without a device: lines alternate between `classes` homes every
// `lines_per_home` lines; unit u is near class u % classes. Reaching a line
// costs near_ns or far_ns; a round trip on (first, second) costs the four
// reaches of the two units. Pairs that run `crowded_above` or more at once
// pay `crowding_penalty` (relative), the way polling loads interfere.
// With `devices` > 1 it is that many such chips joined by a link: units are
// named by unit_id(), and a unit reaches a line in device d's memory from
// another device in link_ns + d * link_step_ns, plus link_side_step_ns
// per side number of the unit and link_class_step_ns per home class of the
// line (both 0 by default: then whatever the line's home).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <memory>
#include <optional>

#include "cumap/backend.hpp"
#include "plan/plan_checks.hpp"
#include "plan/sync_checks.hpp"
#include "cumap/error.hpp"

namespace cumap::test {

struct FakeChip {
  int devices = 1;
  double link_ns = 900.0;
  double link_step_ns = 0.0;
  // Over the link a unit of side s (u % classes) pays s * link_side_step_ns
  // more, a line of home class c costs c * link_class_step_ns more.
  double link_side_step_ns = 0.0;
  double link_class_step_ns = 0.0;
  int units = 8;  // per device
  int classes = 2;
  std::uint64_t lines_per_home = 32;
  double near_ns = 150.0;
  double far_ns = 250.0;
  std::size_t crowded_above = 1000000;
  double crowding_penalty = 0.0;
  double noise = 0.0;  // every measurement off by up to this much (relative), differently each call
  double cycles_per_ns = 0.0;  // > 0: measurements also come in cycles, as on a GPU
  // Every pair times out (no sample), as a pair does whose partner never
  // answers within --timeout-ms; home discovery still works.
  bool time_out = false;
  // The first line probe reads this many lines from line slow_stretch_from
  // this much slower for unit 0, as when a busy CPU preempts the probing
  // thread for a while.
  std::uint64_t slow_stretch_from = 64;
  std::uint64_t slow_stretch_lines = 0;
  double slow_stretch_factor = 1.0;
  Topology topology;  // what topology() reports; none by default
  // Each chip's serial, as NVML reports a GPU's (device().gpus); none by default.
  std::vector<std::string> serials;
};

// An H100's twelve GPCs (8, 16, 16, 16, 16, 16, 18, 18 and four of 2 SMs)
// over 132 units, each GPC on one side as on the H100: the fake's sides are
// the units' parity, so side 0 (even units) holds GPC0, 4, 5, 6 and 8-11,
// side 1 (odd units) GPC1, 2, 3 and 7.
inline Topology h100_like_topology() {
  Topology t;
  t.source = "fake";
  t.groups.resize(12);
  for (int g = 0; g < 12; ++g) t.groups[static_cast<std::size_t>(g)].name = "GPC" + std::to_string(g);
  const auto deal = [&](int first_unit, const std::vector<std::pair<int, int>>& gpc_sizes) {
    int unit = first_unit;
    for (const auto& [gpc, size] : gpc_sizes)
      for (int i = 0; i < size; ++i, unit += 2) t.groups[static_cast<std::size_t>(gpc)].units.push_back(unit);
  };
  deal(0, {{0, 8}, {4, 16}, {5, 16}, {6, 18}, {8, 2}, {9, 2}, {10, 2}, {11, 2}});
  deal(1, {{1, 16}, {2, 16}, {3, 16}, {7, 18}});
  return t;
}

class FakeChipBackend final : public Backend {
 public:
  explicit FakeChipBackend(FakeChip chip) : chip_(chip) {}

  int home_of(std::uint64_t offset) const {
    return static_cast<int>((offset / protocol::kLineBytes / chip_.lines_per_home) % chip_.classes);
  }
  double reach_ns(int unit, std::uint64_t offset) const {
    return unit % chip_.classes == home_of(offset) ? chip_.near_ns : chip_.far_ns;
  }
  // `u` reaching the line at `offset` of `device`'s arena.
  double reach_ns(UnitRef u, int device, std::uint64_t offset) const {
    if (u.device == device) return reach_ns(u.unit, offset);
    return chip_.link_ns + device * chip_.link_step_ns + (u.unit % chip_.classes) * chip_.link_side_step_ns +
           home_of(offset) * chip_.link_class_step_ns;
  }

  DeviceInfo device() const override {
    DeviceInfo d;
    d.backend = "fake";
    d.name = "fake chip";
    d.unit_name = "unit";
    d.unit_count = chip_.units * chip_.devices;
    for (std::size_t g = 0; g < chip_.serials.size(); ++g)
      d.gpus.push_back({static_cast<int>(g), d.name, "", chip_.serials[g]});
    return d;
  }
  std::vector<int> units() const override {
    std::vector<int> ids;
    for (int d = 0; d < chip_.devices; ++d)
      for (int i = 0; i < chip_.units; ++i) ids.push_back(chip_.devices > 1 ? unit_id(UnitRef{d, i}) : i);
    return ids;
  }
  // Units 0 .. units-1 on each chip, as plans name them.
  UnitsByDevice units_by_device() const {
    UnitsByDevice by_device;
    for (int d = 0; d < chip_.devices; ++d)
      for (int i = 0; i < chip_.units; ++i) by_device[d].push_back(i);
    return by_device;
  }
  Capabilities capabilities() const override {
    Capabilities c;
    c.max_pairs_per_round = chip_.units * chip_.devices / 2;
    c.default_lines_per_class = 2;
    return c;
  }
  Topology topology() override { return chip_.topology; }

  LineLatencyTable probe_lines(const LineProbePlan& plan, const ProgressFn&) override {
    // Its own units, or (the remote table of a run across devices) only other devices' units.
    const bool remote = !plan.units.empty() && plan.units.front().device != plan.device;
    for (const UnitRef& u : plan.units)
      if ((u.device != plan.device) != remote)
        throw UsageError("the fake probes a device's lines from its own units or from other devices' units alone");
    ++(remote ? remote_probes_of_device : probes_of_device)[plan.device];
    LineLatencyTable t;
    t.units = plan.units;
    t.lines = plan.lines;
    const bool first_probe = !remote && probe_calls++ == 0;
    for (const UnitRef& u : plan.units)
      for (std::uint64_t l : plan.lines) {
        const std::uint64_t line = l / protocol::kLineBytes;
        const bool slowed = first_probe && u.unit == 0 && line >= chip_.slow_stretch_from &&
                            line < chip_.slow_stretch_from + chip_.slow_stretch_lines;
        t.ns.push_back(reach_ns(u, plan.device, l + plan.arena.offset_bytes) * (slowed ? chip_.slow_stretch_factor : 1.0));
        t.cycles.push_back(t.ns.back() * 2);
      }
    return t;
  }

  Measurements measure(const MeasurementPlan& plan, const ProgressFn& progress) override {
    check_plan_units(plan, units_by_device(), "unit");
    check_plan_rounds(plan, "unit");
    ++measure_calls;
    Measurements out;
    for (std::size_t r = 0; r < plan.rounds.size(); ++r) {
      // As a GPU backend between launches: a stop keeps the rounds done.
      if (r > 0 && plan.stop && plan.stop()) {
        out.stopped = true;
        break;
      }
      const auto& round = plan.rounds[r];
      max_round_seen = std::max(max_round_seen, round.pairs.size());
      const double crowd = round.pairs.size() >= chip_.crowded_above ? 1.0 + chip_.crowding_penalty : 1.0;
      for (const PlannedPair& p : round.pairs) {
        PairMeasurement m = measurement_for(p, static_cast<int>(r));
        const std::uint64_t base = plan.arena.offset_bytes;
        const double wobble = 1.0 + chip_.noise * jitter(static_cast<unsigned>(measure_calls) * 7919u + r * 131u +
                                                           static_cast<unsigned>(p.flags.first));
        const int at = p.flags.device;
        const double rtt = wobble * crowd *
                           (reach_ns(p.a, at, base + p.flags.first) + reach_ns(p.a, at, base + p.flags.second) +
                            reach_ns(p.b, at, base + p.flags.first) + reach_ns(p.b, at, base + p.flags.second));
        if (chip_.time_out) {
          m.timed_out = true;
          out.pairs.push_back(std::move(m));
          ++pairs_measured;
          continue;
        }
        m.rtt_ns.assign(static_cast<std::size_t>(plan.counts.samples), rtt);
        if (chip_.cycles_per_ns > 0) m.rtt_cycles.assign(m.rtt_ns.size(), rtt * chip_.cycles_per_ns);
        m.cold_rtt_ns = rtt * 2;
        out.pairs.push_back(std::move(m));
        ++pairs_measured;
      }
      if (progress) progress(r + 1, plan.rounds.size());
    }
    out.stats.launches = 1;
    return out;
  }

  // Barriers and contention over the same reach costs: a barrier's episode
  // costs twice the slowest participant's reach to the counter (a flag
  // barrier's also its reach to the release flag; two-level its slowest
  // group, then the leaders' meeting: each leader's reach to the exchange
  // counters of the others, or twice to the case's counter); a contended
  // operation its participant's reach. grid.sync() only of every unit of
  // one device.
  std::unique_ptr<SyncSession> open_sync(const SyncPlan& plan) override {
    check_sync_plan(plan, units_by_device(), "unit");
    ++sync_calls;
    return std::make_unique<Sync>(*this, plan);
  }

  SyncMeasurement sync_case(const SyncPlan& plan, const SyncCase& c) const {
    const auto reach = [&](UnitRef u, int device, std::uint64_t line) {
      return reach_ns(u, device, plan.arena.offset_bytes + line);
    };
    const bool across = sync_case_devices(c).size() > 1;
    if (!c.contention && c.impl == BarrierImpl::Platform &&
        (across || c.participants.size() != static_cast<std::size_t>(chip_.units)))
      return unsupported_case(c, across ? "no grid spans devices" : "only with every unit");
    SyncMeasurement m;
    m.tag = c.tag;
    m.timed_out = chip_.time_out;
    double slowest = 0;
    for (std::size_t p = 0; p < c.participants.size(); ++p) {
      const UnitRef u = c.participants[p];
      if (c.contention || c.impl != BarrierImpl::TwoLevel) {
        double one = reach(u, c.counter_gpu, c.counter);
        if (c.contention) m.ns.insert(m.ns.end(), static_cast<std::size_t>(c.episodes), one);
        if (!c.contention && c.impl == BarrierImpl::Flag) one += reach(u, c.counter_gpu, c.release) / 2;
        slowest = std::max(slowest, 2 * one);
        continue;
      }
      const auto g = static_cast<std::size_t>(c.group_of[p]);
      slowest = std::max(slowest, 2 * reach(u, group_gpu_of(c, g), c.group_counter[g]));
    }
    if (!c.contention && c.impl == BarrierImpl::TwoLevel) {
      double leaders = 0;
      for (std::size_t p = 0; p < c.participants.size(); ++p) {
        if (std::find(c.group_of.begin(), c.group_of.end(), c.group_of[p]) - c.group_of.begin() !=
            static_cast<std::ptrdiff_t>(p))
          continue;  // not its group's first participant
        for (std::size_t h = 0; h < c.group_exchange.size(); ++h)
          if (h != static_cast<std::size_t>(c.group_of[p]))
            leaders = std::max(leaders, reach(c.participants[p], group_gpu_of(c, h), c.group_exchange[h]));
        if (c.group_exchange.empty())
          leaders = std::max(leaders, 2 * reach(c.participants[p], c.counter_gpu, c.counter));
      }
      slowest += leaders;
    }
    if (c.contention) m.ops_per_us = static_cast<double>(c.participants.size()) * 1000.0 / (slowest / 2);
    else m.ns.assign(static_cast<std::size_t>(c.episodes), slowest);
    if (chip_.cycles_per_ns > 0)
      for (double ns : m.ns) m.cycles.push_back(ns * chip_.cycles_per_ns);
    if (m.timed_out) {  // no value survives a wait that ran out
      m = SyncMeasurement{};
      m.tag = c.tag;
      m.timed_out = true;
    }
    return m;
  }

  int sync_calls = 0;
  int measure_calls = 0;
  std::map<int, int> probes_of_device;
  std::map<int, int> remote_probes_of_device;  // of a device's lines by other devices' units
  std::size_t pairs_measured = 0;
  int probe_calls = 0;
  std::size_t max_round_seen = 0;

 private:
  class Sync final : public SyncSession {
   public:
    Sync(const FakeChipBackend& chip, const SyncPlan& plan) : chip_(chip), plan_(plan) {}
    std::optional<SyncMeasurement> measure_case(std::size_t index) override {
      return chip_.sync_case(plan_, plan_.cases.at(index));
    }
    double device_seconds() const override { return 0.0; }
    double clock_hz() const override { return 0.0; }

   private:
    const FakeChipBackend& chip_;
    const SyncPlan& plan_;
  };

  // Deterministic numbers in [-1, 1] (a hash), so tests repeat exactly.
  static double jitter(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return static_cast<double>(x % 20001u) / 10000.0 - 1.0;
  }

  FakeChip chip_;
};

}  // namespace cumap::test
