// NVML, loaded at run time, asked which other processes compute on a GPU.
#include "backends/cuda/nvml/gpu_neighbours.hpp"

#include <algorithm>

#include "backends/cuda/nvml/nvml_session.hpp"

namespace cumap::cuda {
namespace {

// nvmlProcessInfo_v1_t: the layout nvmlDeviceGetComputeRunningProcesses
// (the unversioned symbol) fills on every driver.
struct NvmlProcessInfoV1 {
  unsigned int pid;
  unsigned long long usedGpuMemory;
};

using ProcessesFn = nvml::Return (*)(void* device, unsigned int* count, void* infos /* NvmlProcessInfoV1[] */);

GpuNeighbours unknown(std::string reason) {
  GpuNeighbours n;
  n.reason = std::move(reason);
  return n;
}

}  // namespace

GpuNeighbours find_gpu_neighbours(const std::string& pci_bus_id, unsigned own_pid) {
  return find_gpu_neighbours(pci_bus_id, own_pid, nvml::kLibrary);
}

GpuNeighbours find_gpu_neighbours(const std::string& pci_bus_id, unsigned own_pid, const char* nvml_library) {
  if (pci_bus_id.empty()) return unknown("no PCI bus id for the device");
  const nvml::Session session(nvml_library);
  if (!session.failure().empty()) return unknown(session.failure());
  auto processes = session.symbol<ProcessesFn>("nvmlDeviceGetComputeRunningProcesses");
  if (!processes) return unknown("NVML lacks the functions needed");
  std::string why_not;
  const nvml::Device device = session.device(pci_bus_id, why_not);
  if (device == nullptr) return unknown(why_not);

  // The list can grow between the two calls: ask again while it does.
  std::vector<NvmlProcessInfoV1> infos(16);
  nvml::Return status = nvml::kErrorInsufficientSize;
  for (int attempt = 0; attempt < 4 && status == nvml::kErrorInsufficientSize; ++attempt) {
    unsigned int count = static_cast<unsigned int>(infos.size());
    status = processes(device, &count, infos.data());
    if (status == nvml::kErrorInsufficientSize) infos.resize(std::max<std::size_t>(count, infos.size()) * 2);
    else if (status == nvml::kSuccess) infos.resize(count);
  }
  if (status != nvml::kSuccess) return unknown("NVML could not list the device's processes: " + session.text(status));
  GpuNeighbours result;
  result.known = true;
  for (const NvmlProcessInfoV1& info : infos)
    if (info.pid != own_pid) result.processes.push_back({info.pid, info.usedGpuMemory});
  return result;
}

}  // namespace cumap::cuda
