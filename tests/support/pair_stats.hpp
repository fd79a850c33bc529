#pragma once
#include "cumap/result.hpp"

namespace cumap::test {

// Pair a-b whose five samples all took a round trip of 2 x `oneway` ns.
inline PairStats pair_at(int a, int b, double oneway) {
  PairStats p;
  p.a = a;
  p.b = b;
  p.rtt_ns = {2 * oneway, 2 * oneway, 2 * oneway, 2 * oneway, 2 * oneway, 5};
  return p;
}

}  // namespace cumap::test
