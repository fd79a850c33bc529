#pragma once
#include <string>
#include <vector>

// Other processes computing on the GPU being mapped: they share its L2 and
// interconnect and can skew a map, so the run records them (meta.json).
// Pure host C++: NVML is loaded with dlopen at run time, so neither the
// build nor a machine without the NVIDIA driver needs anything of it.
namespace cumap::cuda {

struct GpuProcess {
  unsigned pid = 0;
  unsigned long long used_memory_bytes = 0;  // 0 when NVML cannot tell
};

struct GpuNeighbours {
  // true: `processes` is the full list; false: unknown, `reason` says why
  // (no NVML library, no such device, a driver error...).
  bool known = false;
  std::string reason;
  std::vector<GpuProcess> processes;  // compute processes other than this one
};

// The compute processes on the device with this PCI bus id (as CUDA's
// cudaDeviceGetPCIBusId writes it, e.g. "0000:65:00.0"), except `own_pid`.
// Never throws: any failure gives known = false and the reason.
GpuNeighbours find_gpu_neighbours(const std::string& pci_bus_id, unsigned own_pid);

// The same with the library named explicitly (tests use a missing name).
GpuNeighbours find_gpu_neighbours(const std::string& pci_bus_id, unsigned own_pid, const char* nvml_library);

}  // namespace cumap::cuda
