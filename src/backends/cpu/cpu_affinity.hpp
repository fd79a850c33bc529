#pragma once
#include <vector>

namespace cumap::cpu {

// CPUs this process may run on (sched_getaffinity), ascending.
std::vector<int> allowed_cpus();

// Pins the calling thread to one CPU; throws RuntimeFailure if the kernel refuses.
void pin_current_thread(int cpu);

// Coherency line size of the data cache, from sysconf or sysfs; 64 if unknown.
int cache_line_bytes();

}  // namespace cumap::cpu
