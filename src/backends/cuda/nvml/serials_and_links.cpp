// NVML, loaded at run time, asked for each GPU's serial and what joins each two.
#include "backends/cuda/nvml/serials_and_links.hpp"

#include <algorithm>
#include <cstdio>

#include "backends/cuda/nvml/nvml_session.hpp"

namespace cumap::cuda {
namespace {

// nvmlPciInfo_t (nvml.h): filled by nvmlDeviceGetNvLinkRemotePciInfo_v2.
struct NvmlPciInfo {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
};

constexpr unsigned kMaxNvLinks = 18;            // NVML_NVLINK_MAX_LINKS
constexpr unsigned kSerialBytes = 30;           // NVML_DEVICE_SERIAL_BUFFER_SIZE
constexpr unsigned kRemoteIsSwitch = 2;         // NVML_NVLINK_DEVICE_TYPE_SWITCH
constexpr int kFeatureEnabled = 1;              // NVML_FEATURE_ENABLED

using SerialFn = nvml::Return (*)(void* device, char* serial, unsigned int length);
using LinkStateFn = nvml::Return (*)(void* device, unsigned int link, void* is_active /* int* */);
using RemotePciFn = nvml::Return (*)(void* device, unsigned int link, void* pci /* NvmlPciInfo* */);
using RemoteTypeFn = nvml::Return (*)(void* device, unsigned int link, void* type /* unsigned* */);
using CommonAncestorFn = nvml::Return (*)(void* a, void* b, void* level /* unsigned* */);

struct PciAddress {
  unsigned domain = 0, bus = 0, device = 0;
  bool operator==(const PciAddress&) const = default;
};

// "0000:65:00.0" or NVML's "00000000:65:00.0": the numbers, whatever the widths.
bool parse_pci(const std::string& text, PciAddress& out) {
  unsigned function = 0;
  return std::sscanf(text.c_str(), "%x:%x:%x.%x", &out.domain, &out.bus, &out.device, &function) == 4;
}

// The active NVLinks of one GPU: how many reach each other GPU (by PCI
// address) and how many reach an NVSwitch.
struct NvLinks {
  std::vector<PciAddress> to_gpus;  // one entry per link
  unsigned to_switches = 0;
};

NvLinks nvlinks_of(const nvml::Session& session, nvml::Device device) {
  NvLinks out;
  auto state = session.symbol<LinkStateFn>("nvmlDeviceGetNvLinkState");
  auto remote = session.symbol<RemotePciFn>("nvmlDeviceGetNvLinkRemotePciInfo_v2");
  auto type = session.symbol<RemoteTypeFn>("nvmlDeviceGetNvLinkRemoteDeviceType");  // drivers 450+
  if (!state || !remote) return out;
  for (unsigned link = 0; link < kMaxNvLinks; ++link) {
    int active = 0;
    // Links past the GPU's count answer "not supported": they are not there.
    if (state(device, link, &active) != nvml::kSuccess || active != kFeatureEnabled) continue;
    unsigned remote_type = 0;
    if (type && type(device, link, &remote_type) == nvml::kSuccess && remote_type == kRemoteIsSwitch) {
      ++out.to_switches;
      continue;
    }
    NvmlPciInfo pci{};
    if (remote(device, link, &pci) == nvml::kSuccess) out.to_gpus.push_back({pci.domain, pci.bus, pci.device});
  }
  return out;
}

// nvmlGpuTopologyLevel_t in nvidia-smi topo -m's words.
std::string pcie_path(unsigned level) {
  switch (level) {
    case 0: return "same board";
    case 10: return "PCIe PIX";
    case 20: return "PCIe PXB";
    case 30: return "PCIe PHB";
    case 40: return "PCIe NODE";
    case 50: return "PCIe SYS";
    default: return fmt::format("PCIe (topology level {})", level);
  }
}

GpuLink link_between(const nvml::Session& session, std::size_t a, std::size_t b, nvml::Device da, nvml::Device db,
                     const NvLinks& from_a, const NvLinks& from_b, const PciAddress& to) {
  GpuLink l{a, b, "unknown", ""};
  unsigned direct = 0;
  for (const PciAddress& p : from_a.to_gpus) direct += p == to ? 1u : 0u;
  if (direct > 0) {
    l.link = fmt::format("NV{}", direct);
    return l;
  }
  if (from_a.to_switches > 0 && from_b.to_switches > 0) {
    l.link = fmt::format("NV{} via NVSwitch", std::min(from_a.to_switches, from_b.to_switches));
    return l;
  }
  auto ancestor = session.symbol<CommonAncestorFn>("nvmlDeviceGetTopologyCommonAncestor");
  unsigned level = 0;
  if (!ancestor) l.reason = "NVML lacks nvmlDeviceGetTopologyCommonAncestor";
  else if (const nvml::Return r = ancestor(da, db, &level); r != nvml::kSuccess) l.reason = session.text(r);
  else l.link = pcie_path(level);
  return l;
}

}  // namespace

SerialsAndLinks serials_and_links(const std::vector<std::string>& pci_bus_ids) {
  return serials_and_links(pci_bus_ids, nvml::kLibrary);
}

SerialsAndLinks serials_and_links(const std::vector<std::string>& pci_bus_ids, const char* nvml_library) {
  SerialsAndLinks facts;
  const std::size_t n = pci_bus_ids.size();
  facts.serials.assign(n, "");
  const auto unknown_links = [&](const std::string& why) {
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) facts.links.push_back({a, b, "unknown", why});
  };
  const nvml::Session session(nvml_library);
  if (!session.failure().empty()) {
    facts.reason = session.failure();
    unknown_links(facts.reason);
    return facts;
  }
  auto serial = session.symbol<SerialFn>("nvmlDeviceGetSerial");
  std::vector<nvml::Device> devices(n, nullptr);
  std::vector<std::string> why_not(n);
  std::vector<NvLinks> links(n);
  std::vector<PciAddress> address(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!parse_pci(pci_bus_ids[i], address[i])) {
      why_not[i] = fmt::format("not a PCI bus id: '{}'", pci_bus_ids[i]);
      continue;
    }
    devices[i] = session.device(pci_bus_ids[i], why_not[i]);
    if (devices[i] == nullptr) continue;
    char text[kSerialBytes] = {};
    if (serial && serial(devices[i], text, kSerialBytes) == nvml::kSuccess) facts.serials[i] = text;
    links[i] = nvlinks_of(session, devices[i]);
  }
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      if (devices[a] == nullptr || devices[b] == nullptr) {
        facts.links.push_back({a, b, "unknown", devices[a] == nullptr ? why_not[a] : why_not[b]});
        continue;
      }
      facts.links.push_back(link_between(session, a, b, devices[a], devices[b], links[a], links[b], address[b]));
    }
  return facts;
}

}  // namespace cumap::cuda
