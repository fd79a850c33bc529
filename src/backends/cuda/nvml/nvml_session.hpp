#pragma once
// NVML loaded with dlopen for the length of one query, so that neither the
// build nor a machine without the NVIDIA driver needs anything of it. Shared
// by the queries that ask NVML about the run's GPUs (gpu_neighbours.cpp,
// serials_and_links.cpp).
#include <dlfcn.h>

#include <optional>
#include <string>

#include <fmt/format.h>

namespace cumap::cuda::nvml {

// The library a driver installs; tests name a fake one instead.
inline constexpr const char* kLibrary = "libnvidia-ml.so.1";

// The few NVML declarations used, from nvml.h (stable ABI since NVML 3).
// Declared here rather than included so that the build needs no CUDA headers.
// Pointer parameters are declared void*: the ABI is the same, and the types
// match any library's own exactly (UBSan checks calls through pointers).
using Return = int;
using Device = void*;
inline constexpr Return kSuccess = 0;
inline constexpr Return kErrorInsufficientSize = 7;

// Opens the library and starts NVML; ends both when it goes. `failure()` says
// why it could not start ("" when it did).
class Session {
 public:
  explicit Session(const char* library) : handle_(::dlopen(library, RTLD_NOW | RTLD_LOCAL)) {
    if (handle_ == nullptr) {
      const char* why = ::dlerror();
      failure_ = fmt::format("NVML not available ({})", why ? why : library);
      return;
    }
    // The _v2 name is the one current drivers export.
    auto init = symbol<Return (*)()>("nvmlInit_v2");
    shutdown_ = symbol<Return (*)()>("nvmlShutdown");
    error_string_ = symbol<const char* (*)(Return)>("nvmlErrorString");
    by_pci_ = symbol<Return (*)(const char*, void**)>("nvmlDeviceGetHandleByPciBusId_v2");
    if (!init || !shutdown_ || !by_pci_) {
      failure_ = "NVML lacks the functions needed";
      return;
    }
    if (const Return r = init(); r != kSuccess) {
      failure_ = "NVML could not start: " + text(r);
      shutdown_ = nullptr;  // nothing to shut down
    }
  }
  ~Session() {
    if (shutdown_ != nullptr && failure_.empty()) shutdown_();
    if (handle_ != nullptr) ::dlclose(handle_);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::string& failure() const { return failure_; }

  // A function of the library, or nullptr if this driver's NVML lacks it.
  template <typename Fn>
  Fn symbol(const char* name) const {
    return handle_ == nullptr ? nullptr : reinterpret_cast<Fn>(::dlsym(handle_, name));
  }

  std::string text(Return r) const {
    return error_string_ ? std::string(error_string_(r)) : fmt::format("NVML error {}", r);
  }

  // The device with this PCI bus id (as cudaDeviceGetPCIBusId writes it,
  // "0000:65:00.0"), or the reason NVML gives for not finding it.
  Device device(const std::string& pci_bus_id, std::string& why_not) const {
    Device device = nullptr;
    if (const Return r = by_pci_(pci_bus_id.c_str(), &device); r != kSuccess) {
      why_not = fmt::format("NVML does not know device {}: {}", pci_bus_id, text(r));
      return nullptr;
    }
    return device;
  }

 private:
  void* handle_;
  std::string failure_;
  Return (*shutdown_)() = nullptr;
  const char* (*error_string_)(Return) = nullptr;
  Return (*by_pci_)(const char*, void**) = nullptr;
};

}  // namespace cumap::cuda::nvml
