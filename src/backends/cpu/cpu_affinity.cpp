#include "backends/cpu/cpu_affinity.hpp"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "cumap/error.hpp"

namespace cumap::cpu {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0)
    throw RuntimeFailure(fmt::format("sched_getaffinity failed: {}", std::strerror(errno)));
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

void pin_current_thread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set); rc != 0)
    throw RuntimeFailure(fmt::format("pthread_setaffinity_np(cpu {}) failed: {}", cpu, std::strerror(rc)));
}

int cache_line_bytes() {
  long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
  if (line > 0) return static_cast<int>(line);
  // Some libcs and containers answer 0 above; sysfs usually still knows.
  std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size");
  int from_sysfs = 0;
  if (f >> from_sysfs && from_sysfs > 0) return from_sysfs;
  return 64;
}

}  // namespace cumap::cpu
