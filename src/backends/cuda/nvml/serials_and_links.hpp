#pragma once
#include <cstddef>
#include <string>
#include <vector>

// What NVML says of the GPUs of a run: each one's board serial (so that a map
// names the chip it belongs to: maps keyed by SM id compare only within one
// chip) and what joins each two of them ("NV18": 18 NVLinks, as nvidia-smi
// topo -m writes it). Plain host C++; NVML is loaded at run time.
namespace cumap::cuda {

struct GpuLink {
  std::size_t a = 0, b = 0;  // indices into the bus ids asked about, a < b
  // "NV18" (NVLinks between the two), "NV18 via NVSwitch" (each has that
  // many links to NVSwitches), "PCIe PIX|PXB|PHB|NODE|SYS" or "same board"
  // (their closest common ancestor, as nvidia-smi topo -m), or "unknown".
  std::string link;
  std::string reason;  // why "unknown"
};

struct SerialsAndLinks {
  // By index of the bus ids asked about; "" when NVML cannot tell.
  std::vector<std::string> serials;
  std::vector<GpuLink> links;  // every two GPUs, (0,1), (0,2)... (1,2)...
  std::string reason;          // why NVML could tell nothing ("" when it could)
};

// The GPUs with these PCI bus ids (as cudaDeviceGetPCIBusId writes them,
// "0000:65:00.0"). Never throws: what NVML cannot tell is "" or "unknown"
// with the reason.
SerialsAndLinks serials_and_links(const std::vector<std::string>& pci_bus_ids);

// The same with the library named explicitly (tests use a fake one).
SerialsAndLinks serials_and_links(const std::vector<std::string>& pci_bus_ids, const char* nvml_library);

}  // namespace cumap::cuda
