#include "backends/cuda/gpu_nvml_facts.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include "backends/cuda/gpu_neighbours.hpp"
#include "backends/cuda/nvml_gpu_facts.hpp"
#include "backends/cuda/nvml_session.hpp"

namespace cumap::cuda {
namespace {

// The run's GPUs (cuda): the one described in `extra`, or each of
// extra["gpus"]; a DeviceInfo or a const one.
template <typename Info>
auto gpus_of(Info& device) {
  std::vector<decltype(&device.extra)> gpus;
  if (device.extra.contains("pci_bus_id")) gpus.push_back(&device.extra);
  if (device.extra.contains("gpus"))
    for (auto& gpu : device.extra["gpus"]) gpus.push_back(&gpu);
  return gpus;
}

template <typename Json>
std::vector<std::string> pci_bus_ids(const std::vector<Json*>& gpus) {
  std::vector<std::string> ids;
  for (const nlohmann::json* gpu : gpus) ids.push_back(gpu->value("pci_bus_id", ""));
  return ids;
}

}  // namespace

void add_serials_and_links(DeviceInfo& device) { add_serials_and_links(device, nvml::kLibrary); }

void add_serials_and_links(DeviceInfo& device, const char* nvml_library) {
  const std::vector<nlohmann::json*> gpus = gpus_of(device);
  if (gpus.empty()) return;
  const NvmlGpuFacts facts = nvml_gpu_facts(pci_bus_ids(gpus), nvml_library);
  for (std::size_t i = 0; i < gpus.size(); ++i) (*gpus[i])["serial"] = facts.serials[i];
  if (gpus.size() < 2) return;
  nlohmann::json links = nlohmann::json::array();
  for (const GpuLink& l : facts.links)
    links.push_back({{"gpu_a", gpus[l.a]->value("device_ordinal", static_cast<int>(l.a))},
                     {"gpu_b", gpus[l.b]->value("device_ordinal", static_cast<int>(l.b))},
                     {"link", l.link},
                     {"reason", l.reason}});
  device.extra["links"] = links;
}

nlohmann::json other_processes(const DeviceInfo& device, bool quiet) {
  const std::vector<std::string> buses = pci_bus_ids(gpus_of(device));
  if (buses.empty()) return nullptr;
  nlohmann::json per_gpu = nlohmann::json::array();
  for (const std::string& bus : buses) {
    const auto n = find_gpu_neighbours(bus, static_cast<unsigned>(::getpid()));
    nlohmann::json pids = nlohmann::json::array();
    for (const auto& p : n.processes) pids.push_back({{"pid", p.pid}, {"used_memory_bytes", p.used_memory_bytes}});
    if (n.known && !n.processes.empty() && !quiet)
      fmt::print(stderr, "cumap: warning: {} other compute process(es) on GPU {}; they can change the map\n",
                 n.processes.size(), bus);
    per_gpu.push_back({{"pci_bus_id", bus}, {"known", n.known}, {"reason", n.reason}, {"processes", pids}});
  }
  if (per_gpu.size() == 1) per_gpu.front().erase("pci_bus_id");
  return per_gpu.size() == 1 ? per_gpu.front() : per_gpu;
}

}  // namespace cumap::cuda
