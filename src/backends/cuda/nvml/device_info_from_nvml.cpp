#include "backends/cuda/nvml/device_info_from_nvml.hpp"

#include <unistd.h>

#include <string>
#include <vector>

#include "backends/cuda/nvml/gpu_neighbours.hpp"
#include "backends/cuda/nvml/serials_and_links.hpp"

namespace cumap::cuda {

void add_nvml_facts(DeviceInfo& device, const char* nvml_library) {
  if (device.gpus.empty()) return;
  std::vector<std::string> buses;
  for (const DeviceInfo::Gpu& gpu : device.gpus) buses.push_back(gpu.pci_bus_id);
  const SerialsAndLinks facts = serials_and_links(buses, nvml_library);
  for (std::size_t i = 0; i < device.gpus.size(); ++i) device.gpus[i].serial = facts.serials[i];
  device.links.clear();
  if (device.gpus.size() > 1)
    for (const GpuLink& l : facts.links)
      device.links.push_back({device.gpus[l.a].ordinal, device.gpus[l.b].ordinal, l.link, l.reason});
  device.neighbours.clear();
  for (const std::string& bus : buses) {
    const GpuNeighbours n = find_gpu_neighbours(bus, static_cast<unsigned>(::getpid()), nvml_library);
    DeviceInfo::Neighbours entry{bus, n.known, n.reason, {}};
    for (const GpuProcess& p : n.processes) entry.processes.push_back({p.pid, p.used_memory_bytes});
    device.neighbours.push_back(std::move(entry));
  }
}

}  // namespace cumap::cuda
