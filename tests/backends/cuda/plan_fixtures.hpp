#pragma once
// Small measurement plans for the CUDA backend's host tests.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "cumap/plan.hpp"

namespace cumap::testing {

// One round per entry of `rounds`, each pair on a line of its own (line i of
// the plan, counted across rounds: the arena must hold them), same-line flags.
inline MeasurementPlan plan_of(const std::vector<std::vector<std::pair<int, int>>>& rounds, int tag = 0) {
  MeasurementPlan plan;
  std::vector<int> units;
  std::uint64_t line = 0;
  for (const auto& r : rounds) {
    Round round;
    for (auto [a, b] : r) {
      PlannedPair p;
      p.a = {0, a};
      p.b = {0, b};
      p.flags = {line * protocol::kLineBytes, line * protocol::kLineBytes + protocol::kSameLineGapBytes};
      p.tag = tag + static_cast<int>(line);
      ++line;
      round.pairs.push_back(p);
      units.push_back(a);
      units.push_back(b);
    }
    plan.rounds.push_back(round);
  }
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  for (int u : units) plan.units.push_back({0, u});
  plan.arena.bytes = std::max<std::uint64_t>(64 * 1024, line * protocol::kLineBytes);
  plan.counts = {100, 2, 0, false};
  return plan;
}

// Every pair of `units` in a round of its own (the serial schedule).
inline MeasurementPlan serial_plan(const std::vector<int>& units) {
  std::vector<std::vector<std::pair<int, int>>> rounds;
  for (std::size_t i = 0; i < units.size(); ++i)
    for (std::size_t j = i + 1; j < units.size(); ++j) rounds.push_back({{units[i], units[j]}});
  return plan_of(rounds);
}

}  // namespace cumap::testing
