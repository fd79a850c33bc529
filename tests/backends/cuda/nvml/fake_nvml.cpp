// A stand-in for libnvidia-ml.so.1 with the few functions cumap calls, on a
// made-up machine of five GPUs:
// - 0000:65:00.0 runs 20 compute processes, pids 1000..1019 (more than
//   cumap's first buffer holds), and has 18 NVLinks to 0000:66:00.0;
// - 0000:67:00.0 has no NVLink; it meets the others at the CPU (SYS);
// - 0000:68:00.0 and 0000:69:00.0 have 18 NVLinks each to NVSwitches.
// Serials are "FAKE" and the bus number ("FAKE65"). Any other bus id is not
// found.
#include <cstdio>
#include <cstring>

// Signatures as cumap declares them (void* for NVML's pointer types), so
// that UBSan's function-type check sees the same types on both sides.
struct ProcessInfo {
  unsigned int pid;
  unsigned long long usedGpuMemory;
};

struct PciInfo {
  char busIdLegacy[16];
  unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};

namespace {

struct FakeGpu {
  unsigned bus;
  unsigned links;       // active NVLinks
  unsigned peer_bus;    // where they go: another GPU, or 0 for NVSwitches
};

FakeGpu gpus[] = {{0x65, 18, 0x66}, {0x66, 18, 0x65}, {0x67, 0, 0}, {0x68, 18, 0}, {0x69, 18, 0}};
const unsigned kProcesses = 20;
const int kNotSupported = 3, kNotFound = 6, kInsufficientSize = 7, kInvalidArgument = 2;

FakeGpu* gpu(void* device) { return static_cast<FakeGpu*>(device); }

}  // namespace

extern "C" {

int nvmlInit_v2() { return 0; }
int nvmlShutdown() { return 0; }
const char* nvmlErrorString(int r) { return r == kNotFound ? "Not Found" : "Unknown Error"; }

int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, void** device) {
  unsigned domain = 0, bus = 0, dev = 0, function = 0;
  if (std::sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &dev, &function) != 4) return kInvalidArgument;
  for (FakeGpu& g : gpus)
    if (domain == 0 && bus == g.bus && dev == 0 && function == 0) {
      *device = &g;
      return 0;
    }
  return kNotFound;
}

int nvmlDeviceGetComputeRunningProcesses(void* device, unsigned int* count, void* buffer) {
  if (gpu(device)->bus != 0x65) {
    *count = 0;
    return 0;
  }
  auto* infos = static_cast<ProcessInfo*>(buffer);
  if (*count < kProcesses) {
    *count = kProcesses;
    return kInsufficientSize;
  }
  for (unsigned i = 0; i < kProcesses; ++i) infos[i] = {1000 + i, (i + 1) * 1024ull};
  *count = kProcesses;
  return 0;
}

int nvmlDeviceGetSerial(void* device, char* serial, unsigned int length) {
  std::snprintf(serial, length, "FAKE%x", gpu(device)->bus);
  return 0;
}

int nvmlDeviceGetNvLinkState(void* device, unsigned int link, void* is_active) {
  if (link >= gpu(device)->links) return kNotSupported;
  *static_cast<int*>(is_active) = 1;
  return 0;
}

int nvmlDeviceGetNvLinkRemoteDeviceType(void* device, unsigned int link, void* type) {
  if (link >= gpu(device)->links) return kNotSupported;
  *static_cast<unsigned*>(type) = gpu(device)->peer_bus == 0 ? 2u : 0u;  // SWITCH : GPU
  return 0;
}

int nvmlDeviceGetNvLinkRemotePciInfo_v2(void* device, unsigned int link, void* pci) {
  if (link >= gpu(device)->links) return kNotSupported;
  PciInfo info{};
  info.bus = gpu(device)->peer_bus;
  std::snprintf(info.busId, sizeof info.busId, "00000000:%02x:00.0", info.bus);
  *static_cast<PciInfo*>(pci) = info;
  return 0;
}

int nvmlDeviceGetTopologyCommonAncestor(void*, void*, void* level) {
  *static_cast<unsigned*>(level) = 50;  // NVML_TOPOLOGY_SYSTEM
  return 0;
}
}
