#include "backends/cuda/cuda_device_facts.hpp"

#include <cuda_runtime_api.h>

#include <fstream>
#include <regex>

#include <fmt/format.h>

#include "backends/cuda/cuda_check.hpp"
#include "cumap/error.hpp"

namespace cumap::cuda {
namespace {

int attribute(cudaDeviceAttr attr, int ordinal) {
  int v = 0;
  CUMAP_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, ordinal));
  return v;
}

// The runtime only knows API versions; the driver's own version string is in
// procfs on Linux.
std::string kernel_module_version() {
  std::ifstream f("/proc/driver/nvidia/version");
  std::string line;
  std::getline(f, line);
  std::smatch m;
  if (std::regex_search(line, m, std::regex(R"((\d+\.\d+(\.\d+)?))"))) return m[1];
  return "";
}

}  // namespace

DeviceFacts read_device_facts(int ordinal) {
  int count = 0;
  if (cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess) {
    (void)cudaGetLastError();
    throw UsageError(fmt::format("no NVIDIA GPU found: {}", cudaGetErrorString(err)));
  }
  if (count == 0) throw UsageError("no NVIDIA GPU found: the CUDA runtime reports 0 devices");
  if (ordinal >= count)
    throw UsageError(fmt::format("--device {} is out of range: {} NVIDIA GPU(s), 0-{}", ordinal, count, count - 1));
  CUMAP_CUDA_CHECK(cudaSetDevice(ordinal));

  DeviceFacts f;
  f.ordinal = ordinal;
  cudaDeviceProp p{};
  CUMAP_CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
  f.name = p.name;
  f.sm_count = p.multiProcessorCount;
  f.cc_major = p.major;
  f.cc_minor = p.minor;
  f.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  f.persisting_l2_max_bytes = static_cast<std::size_t>(p.persistingL2CacheMaxSize);
  f.access_policy_max_window_bytes = static_cast<std::size_t>(p.accessPolicyMaxWindowSize);
  f.smem_optin_bytes = p.sharedMemPerBlockOptin;
  f.max_sm_clock_hz = attribute(cudaDevAttrClockRate, ordinal) * 1e3;
  f.memory_clock_hz = attribute(cudaDevAttrMemoryClockRate, ordinal) * 1e3;
  f.cooperative_launch = attribute(cudaDevAttrCooperativeLaunch, ordinal) != 0;
  f.ecc = p.ECCEnabled != 0;
  CUMAP_CUDA_CHECK(cudaRuntimeGetVersion(&f.runtime_version));
  CUMAP_CUDA_CHECK(cudaDriverGetVersion(&f.driver_api_version));
  f.driver_version = kernel_module_version();
  char bus_id[32] = {};
  CUMAP_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal));
  f.pci_bus_id = bus_id;
  if (!f.cooperative_launch)
    throw UsageError(fmt::format("{} does not support cooperative launches, which cumap needs", f.name));
  return f;
}

}  // namespace cumap::cuda
