#pragma once
// A barrier or contention result built by hand, shaped like a GPU's: two
// sides, sets up to 8 units, counter homes near and far, a case that timed
// out and one the backend could not run.
#include <cstdint>
#include <string>
#include <vector>

#include "cumap/result.hpp"
#include "core/stats.hpp"

namespace cumap::test {

inline SyncCaseResult sync_case(const std::string& what, const std::string& set, int k, const std::string& home,
                                double median) {
  SyncCaseResult c;
  c.what = what;
  c.label = {set, k, home, home == "own" ? -1 : home == "far", 0, "", ""};
  for (int u = 0; u < k; ++u) c.participants.push_back(u);
  // Three launches, each on a line of its own.
  c.counter_offsets = home == "far" ? std::vector<std::uint64_t>{4224, 8448, 12672}
                                    : std::vector<std::uint64_t>{0, 256, 512};
  c.launches = 3;
  c.ns = Summary{median, median * 0.9, median * 1.3, median * 0.8, median * 2, 100};
  c.cycles = Summary{median * 1.98, median * 1.9, median * 2.5, median, median * 3, 100};
  c.values = 100;
  // A barrier's one number differs from its episodes' median, as on a GPU.
  if (what != "cas" && what != "add") {
    c.per_barrier_ns = median * 1.05;
    c.per_barrier_cycles = median * 1.05 * 1.98;
  }
  return c;
}

inline SyncResult sync_result(bool contention) {
  SyncResult r;
  r.settings.contention = contention;
  r.settings.episodes = 100;
  r.settings.warmup = 10;
  r.settings.launches = 3;
  r.settings.ops_per_batch = 64;
  r.settings.timeout_ms = 1000;
  r.settings.options = {{"command", contention ? "contention" : "barrier"}, {"episodes", 100}};
  r.discovery.device.backend = "cuda";
  r.discovery.device.name = "NVIDIA H100 80GB HBM3";
  r.discovery.device.unit_name = "SM";
  r.discovery.device.unit_count = 8;
  r.discovery.device.clock_source = "globaltimer";
  r.discovery.display_order = {0, 1, 2, 3, 4, 5, 6, 7};
  r.discovery.run.command_line = contention ? "cumap contention" : "cumap barrier";
  // Two lines, one per home class; units 0-3 near class 0, 4-7 near class 1.
  HomesResult h;
  h.table.lines = {0, 4224};
  h.classes.class_count = 2;
  h.classes.line_class = {0, 1};
  h.classes.class_unit_ns.assign(2, {});
  for (int u = 0; u < 8; ++u) {
    h.unit_ids.push_back(u);
    h.table.units.push_back({0, u});
    h.classes.unit_side.push_back(u / 4);
    for (int c = 0; c < 2; ++c) {
      const double ns = c == u / 4 ? 300.0 : 500.0;
      h.table.ns.push_back(ns);
      h.table.cycles.push_back(ns * 1.98);
      h.classes.class_unit_ns[static_cast<std::size_t>(c)].push_back(ns);
    }
  }
  r.discovery.homes = {h};
  r.clock_hz = 1.98e9;
  const std::vector<std::string> whats =
      contention ? std::vector<std::string>{"cas", "add"} : std::vector<std::string>{"counter", "flag", "two-level"};
  for (const std::string set : {"one-side", "alternating"}) {
    const int most = set == std::string("one-side") ? 4 : 8;
    for (int k = contention ? 1 : 2; k <= most; k *= 2)
      for (std::size_t w = 0; w < whats.size(); ++w)
        for (const std::string home : {"near", "far"}) {
          SyncCaseResult c = sync_case(whats[w], set, k, home, 300 + 120 * k * (w + 1) + (home == "far" ? 180 : 0));
          if (whats[w] == "two-level") c.label.groups = 2, c.label.grouped_by = "side";
          if (contention) c.ops_per_us = 1000.0 / c.ns.median * k;
          r.cases.push_back(c);
        }
    if (!contention) {
      SyncCaseResult platform = sync_case("platform", set, most, "own", 1500);
      if (set == std::string("one-side")) {
        platform.unsupported = true;
        platform.why = "grid.sync() needs every SM";
        platform.values = 0;
        platform.ns = platform.cycles = summarize({});
        platform.per_barrier_ns = platform.per_barrier_cycles = kNaN;
      }
      r.cases.push_back(platform);
    }
  }
  r.cases[1].timed_out = true;
  r.cases[1].values = 0;
  r.cases[1].ns = r.cases[1].cycles = summarize({});
  r.cases[1].per_barrier_ns = r.cases[1].per_barrier_cycles = kNaN;
  r.planned_cases = r.cases.size();
  r.notes = {"one-gpc: the topology (none) has no groups"};
  return r;
}

}  // namespace cumap::test
