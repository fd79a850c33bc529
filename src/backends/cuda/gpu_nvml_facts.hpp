#pragma once
// What NVML adds to a run's DeviceInfo (cuda only; other backends have no PCI
// bus id and are left as they are): each GPU's serial, the links between
// GPUs, and other processes computing on them.
#include <nlohmann/json.hpp>

#include "cumap/backend.hpp"

namespace cumap::cuda {

// Adds "serial" beside each GPU's "pci_bus_id" (one GPU: in device.extra;
// several: in each of extra["gpus"]) and, across GPUs, extra["links"]:
// [{"gpu_a", "gpu_b", "link", "reason"}] by device ordinal, which gpus.csv,
// meta.json and --list-devices show. "" and "unknown" where NVML cannot tell.
void add_serials_and_links(DeviceInfo& device);
// The same with the NVML library named (tests name a fake one).
void add_serials_and_links(DeviceInfo& device, const char* nvml_library);

// Other compute processes on the run's GPUs share their L2 and interconnect:
// warns (unless quiet) and returns them for meta.json; null without a GPU.
nlohmann::json other_processes(const DeviceInfo& device, bool quiet);

}  // namespace cumap::cuda
