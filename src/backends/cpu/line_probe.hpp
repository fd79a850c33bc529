#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

namespace cumap::cpu {

// Home discovery on a CPU: from a thread pinned to `cpu`, `repeats` sweeps
// over the lines, timing `chain` dependent fetch_add(0) on each; per line the
// fastest, in ns per atomic (steady_clock). The lines' first words must hold 0.
std::vector<double> probe_lines_from_cpu(int cpu, const std::vector<std::atomic<std::uint32_t>*>& lines, int chain,
                                         int repeats);

}  // namespace cumap::cpu
