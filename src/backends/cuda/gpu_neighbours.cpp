// NVML, loaded at run time, asked which other processes compute on a GPU.
#include "backends/cuda/gpu_neighbours.hpp"

#include <dlfcn.h>

#include <algorithm>

#include <fmt/format.h>

namespace cumap::cuda {
namespace {

// The few NVML declarations used, from nvml.h (stable ABI since NVML 3).
// Declared here rather than included so that the build needs no CUDA headers.
// Pointer parameters are declared void*: the ABI is the same, and the types
// match any library's own exactly (UBSan checks calls through pointers).
using nvmlReturn_t = int;
using nvmlDevice_t = void*;
constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr nvmlReturn_t kNvmlErrorInsufficientSize = 7;

// nvmlProcessInfo_v1_t: the layout nvmlDeviceGetComputeRunningProcesses
// (the unversioned symbol) fills on every driver.
struct NvmlProcessInfoV1 {
  unsigned int pid;
  unsigned long long usedGpuMemory;
};

using InitFn = nvmlReturn_t (*)();
using ShutdownFn = nvmlReturn_t (*)();
using ErrorStringFn = const char* (*)(nvmlReturn_t);
using HandleByPciFn = nvmlReturn_t (*)(const char*, void** device);
using ProcessesFn = nvmlReturn_t (*)(void* device, unsigned int* count, void* infos /* NvmlProcessInfoV1[] */);

// Closes the library when the lookup is done, whatever path it took.
class Library {
 public:
  explicit Library(const char* name) : handle_(::dlopen(name, RTLD_NOW | RTLD_LOCAL)) {}
  ~Library() {
    if (handle_ != nullptr) ::dlclose(handle_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  bool loaded() const { return handle_ != nullptr; }
  template <typename Fn>
  Fn symbol(const char* name) const {
    return reinterpret_cast<Fn>(::dlsym(handle_, name));
  }

 private:
  void* handle_;
};

GpuNeighbours unknown(std::string reason) {
  GpuNeighbours n;
  n.reason = std::move(reason);
  return n;
}

}  // namespace

GpuNeighbours find_gpu_neighbours(const std::string& pci_bus_id, unsigned own_pid) {
  return find_gpu_neighbours(pci_bus_id, own_pid, "libnvidia-ml.so.1");
}

GpuNeighbours find_gpu_neighbours(const std::string& pci_bus_id, unsigned own_pid, const char* nvml_library) {
  if (pci_bus_id.empty()) return unknown("no PCI bus id for the device");
  const Library nvml(nvml_library);
  if (!nvml.loaded()) {
    const char* why = ::dlerror();
    return unknown(fmt::format("NVML not available ({})", why ? why : nvml_library));
  }
  // The _v2 names are the ones current drivers export for these calls.
  auto init = nvml.symbol<InitFn>("nvmlInit_v2");
  auto shutdown = nvml.symbol<ShutdownFn>("nvmlShutdown");
  auto error_string = nvml.symbol<ErrorStringFn>("nvmlErrorString");
  auto by_pci = nvml.symbol<HandleByPciFn>("nvmlDeviceGetHandleByPciBusId_v2");
  auto processes = nvml.symbol<ProcessesFn>("nvmlDeviceGetComputeRunningProcesses");
  if (!init || !shutdown || !by_pci || !processes) return unknown("NVML lacks the functions needed");
  const auto text = [&](nvmlReturn_t r) {
    return error_string ? std::string(error_string(r)) : fmt::format("NVML error {}", r);
  };

  if (const nvmlReturn_t r = init(); r != kNvmlSuccess) return unknown("NVML could not start: " + text(r));
  GpuNeighbours result;
  nvmlDevice_t device = nullptr;
  if (const nvmlReturn_t r = by_pci(pci_bus_id.c_str(), &device); r != kNvmlSuccess) {
    result = unknown(fmt::format("NVML does not know device {}: {}", pci_bus_id, text(r)));
  } else {
    // The list can grow between the two calls: ask again while it does.
    std::vector<NvmlProcessInfoV1> infos(16);
    nvmlReturn_t status = kNvmlErrorInsufficientSize;
    for (int attempt = 0; attempt < 4 && status == kNvmlErrorInsufficientSize; ++attempt) {
      unsigned int count = static_cast<unsigned int>(infos.size());
      status = processes(device, &count, infos.data());
      if (status == kNvmlErrorInsufficientSize) infos.resize(std::max<std::size_t>(count, infos.size()) * 2);
      else if (status == kNvmlSuccess) infos.resize(count);
    }
    if (status != kNvmlSuccess) {
      result = unknown("NVML could not list the device's processes: " + text(status));
    } else {
      result.known = true;
      for (const NvmlProcessInfoV1& info : infos)
        if (info.pid != own_pid) result.processes.push_back({info.pid, info.usedGpuMemory});
    }
  }
  shutdown();
  return result;
}

}  // namespace cumap::cuda
