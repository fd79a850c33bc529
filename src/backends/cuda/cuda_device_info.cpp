// The DeviceInfo of the metadata: identity only, from facts read once.
#include <fmt/format.h>

#include "backends/cuda/cuda_device_facts.hpp"

namespace cumap::cuda {

std::string api_version(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

DeviceInfo describe(const DeviceFacts& f) {
  DeviceInfo d;
  d.backend = "cuda";
  d.name = f.name;
  d.unit_name = "SM";
  d.unit_count = f.sm_count;
  d.clock_source = "clock64() on the pinging SM, converted to ns with the SM clock measured against %globaltimer";
  d.clock_hz = f.max_sm_clock_hz;  // nominal; RunStats::clock_hz is the rate measured during a run
  d.runtime_version = api_version(f.runtime_version);
  d.driver_version = f.driver_version.empty() ? api_version(f.driver_api_version) : f.driver_version;
  d.extra["device_ordinal"] = f.ordinal;
  d.extra["pci_bus_id"] = f.pci_bus_id;
  d.extra["compute_capability"] = fmt::format("{}.{}", f.cc_major, f.cc_minor);
  d.extra["sm_count"] = f.sm_count;
  d.extra["l2_bytes"] = f.l2_bytes;
  d.extra["persisting_l2_max_bytes"] = f.persisting_l2_max_bytes;
  d.extra["shared_memory_per_block_optin_bytes"] = f.smem_optin_bytes;
  d.extra["max_sm_clock_hz"] = f.max_sm_clock_hz;
  d.extra["memory_clock_hz"] = f.memory_clock_hz;
  d.extra["ecc_enabled"] = f.ecc;
  // The runtime has no MIG query; a MIG instance names itself in the device name.
  d.extra["mig_instance"] = f.name.find("MIG") != std::string::npos;
  d.extra["driver_api_version"] = api_version(f.driver_api_version);
  return d;
}

}  // namespace cumap::cuda
