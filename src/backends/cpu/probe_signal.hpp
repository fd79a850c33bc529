#pragma once
// The signalling write of --probe on CPU threads, as protocol.hpp defines it:
// the ping-pong signals its flags with it and the barriers their release
// flags and counters. Values only grow, so a CAS that expects value - 1 can
// never be fooled by an older value.
#include <atomic>
#include <cstdint>

#include "cumap/options.hpp"

namespace cumap::cpu {

inline void probe_signal(Probe probe, std::atomic<std::uint32_t>& word, std::uint32_t value) {
  switch (probe) {
    case Probe::Cas: {
      std::uint32_t expected = value - 1;
      word.compare_exchange_strong(expected, value, std::memory_order_acq_rel);
      break;
    }
    case Probe::Exch: word.exchange(value, std::memory_order_acq_rel); break;
    case Probe::AcqRel: word.store(value, std::memory_order_release); break;
    default: word.store(value, std::memory_order_relaxed); break;  // Volatile
  }
}

}  // namespace cumap::cpu
