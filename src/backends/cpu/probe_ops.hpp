#pragma once
// The --probe operations on a CPU word, as protocol.hpp names them: signal
// writes round trip k's value, poll reads what the word holds. The
// ping-pong signals and polls its flags with them, the barriers their
// counters and release flags. Values only grow, so a CAS that expects
// value - 1 can never be fooled by an older value.
#include <atomic>
#include <cstdint>

#include "cumap/options.hpp"

namespace cumap::cpu {

inline void signal(Probe probe, std::atomic<std::uint32_t>& word, std::uint32_t value) {
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

// What the word holds. Cas polls with a CAS that rewrites the value it
// expects (`expected`), so that every poll is a read-modify-write, as in
// the GPU protocol; the others load.
inline std::uint32_t poll(Probe probe, std::atomic<std::uint32_t>& word, std::uint32_t expected) {
  switch (probe) {
    case Probe::Cas: {
      std::uint32_t seen = expected;
      word.compare_exchange_strong(seen, expected, std::memory_order_acq_rel);
      return seen;
    }
    case Probe::AcqRel: return word.load(std::memory_order_acquire);
    default: return word.load(std::memory_order_relaxed);  // Exch, Volatile
  }
}

}  // namespace cumap::cpu
