// A stand-in for libnvidia-ml.so.1 with the few functions cumap calls: the
// device "0000:65:00.0" runs 20 compute processes, pids 1000..1019, which is
// more than cumap's first buffer holds. Any other bus id is not found.
#include <cstring>

// Signatures as cumap declares them (void* for NVML's pointer types), so
// that UBSan's function-type check sees the same types on both sides.
struct ProcessInfo {
  unsigned int pid;
  unsigned long long usedGpuMemory;
};

static int the_device;
static const unsigned kProcesses = 20;

extern "C" {

int nvmlInit_v2() { return 0; }
int nvmlShutdown() { return 0; }
const char* nvmlErrorString(int r) { return r == 6 ? "Not Found" : "Unknown Error"; }

int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, void** device) {
  if (std::strcmp(bus_id, "0000:65:00.0") != 0) return 6;  // NVML_ERROR_NOT_FOUND
  *device = &the_device;
  return 0;
}

int nvmlDeviceGetComputeRunningProcesses(void*, unsigned int* count, void* buffer) {
  auto* infos = static_cast<ProcessInfo*>(buffer);
  if (*count < kProcesses) {
    *count = kProcesses;
    return 7;  // NVML_ERROR_INSUFFICIENT_SIZE
  }
  for (unsigned i = 0; i < kProcesses; ++i) infos[i] = {1000 + i, (i + 1) * 1024ull};
  *count = kProcesses;
  return 0;
}
}
