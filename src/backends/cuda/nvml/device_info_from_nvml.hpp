#pragma once
// What NVML adds to the CUDA backend's DeviceInfo: each GPU's serial, the
// links between the GPUs of a map across GPUs, and other processes
// computing on them. NVML is loaded at run time; without it the serials are
// "", the links "unknown" and the neighbours unknown, each with the reason.
#include "cumap/backend.hpp"
#include "backends/cuda/nvml/nvml_session.hpp"

namespace cumap::cuda {

// Fills serial in each of device.gpus (found by PCI bus id), and, with two or
// more GPUs, device.links by device ordinal; and device.neighbours, one
// entry per GPU. `nvml_library` names the library (tests name a fake one).
void add_nvml_facts(DeviceInfo& device, const char* nvml_library = nvml::kLibrary);

}  // namespace cumap::cuda
