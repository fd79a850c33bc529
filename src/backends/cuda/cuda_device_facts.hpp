#pragma once
#include <cstddef>
#include <string>

#include "cumap/backend.hpp"

namespace cumap::cuda {

// What the backend needs to know about the device, read once (plain data:
// the host orchestration and the fake runtime use it without CUDA).
struct DeviceFacts {
  int ordinal = 0;
  std::string name;
  int sm_count = 0;
  int cc_major = 0;
  int cc_minor = 0;
  std::size_t l2_bytes = 0;
  std::size_t persisting_l2_max_bytes = 0;
  std::size_t access_policy_max_window_bytes = 0;
  std::size_t smem_optin_bytes = 0;
  double max_sm_clock_hz = 0;
  double memory_clock_hz = 0;
  bool cooperative_launch = false;
  bool ecc = false;
  int runtime_version = 0;  // e.g. 13000
  int driver_api_version = 0;
  std::string driver_version;  // the kernel module's, e.g. "580.159.04", when readable
  std::string pci_bus_id;      // "0000:65:00.0": names the GPU to NVML and nvidia-smi
};

// Throws UsageError when no NVIDIA GPU can be used at `ordinal`.
DeviceFacts read_device_facts(int ordinal);

// The DeviceInfo of the metadata (cuda_device_info.cpp, no CUDA calls):
// identity, with the nominal top SM clock as the cycle counter's rate.
DeviceInfo describe(const DeviceFacts& f);

// A CUDA API version number (13000) as "13.0".
std::string api_version(int v);

}  // namespace cumap::cuda
