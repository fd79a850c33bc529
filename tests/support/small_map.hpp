#pragma once
// A map small enough for the fake chip (fake_chip_backend.hpp) to answer at
// once: the options and placement requests the engine tests share.
#include <utility>
#include <vector>

#include "run/measure_placement.hpp"
#include "cumap/options.hpp"

namespace cumap::test {

inline Options small_options() {
  Options o;
  o.iters = 4;
  o.samples = 3;
  o.warmup = 0;
  o.home_lines = 256;
  o.check_pairs = 8;
  o.home_stride = 128;  // the fake chip's homes and slow stretch count consecutive lines
  return o;
}

// Two lines per home class, `per_round` pairs per round.
inline PlacementRequest request_for(const RunHomes& homes, const Options& o, std::vector<int> units, int per_round) {
  PlacementRequest r;
  r.units = std::move(units);
  r.homes = &homes;
  r.lines_per_class = 2;
  r.cross_lines = 2;
  r.iters = *o.iters;
  r.pairs_per_round = per_round;
  r.options = &o;
  return r;
}

}  // namespace cumap::test
