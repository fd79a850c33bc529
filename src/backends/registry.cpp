#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/cpu/cpu_backend.hpp"
#include "cumap/backend.hpp"
#include "cumap/error.hpp"
#if CUMAP_HAVE_CUDA
#include "backends/cuda/cuda_backend.hpp"
#endif
#if CUMAP_HAVE_HIP
#include "backends/hip/hip_backend.hpp"
#endif

namespace cumap {
namespace {

// A GPU backend this build left out: what to configure to have it.
[[noreturn]] [[maybe_unused]] void not_built(const char* name) {
  throw UsageError(fmt::format("this cumap was built without the {0} backend (configure with -DCUMAP_{0}=ON)", name));
}

std::unique_ptr<Backend> make_one(BackendKind kind, const DeviceSelection& selection) {
  // A map across devices is the CUDA backend's alone (peer memory, system-scope atomics).
  if (selection.devices.size() > 1 && kind != BackendKind::Cuda)
    throw UsageError(fmt::format("--devices (a map across GPUs) needs the cuda backend, not {}", to_string(kind)));
  switch (kind) {
    case BackendKind::Cpu: return make_cpu_backend(selection);
    case BackendKind::Cuda:
#if CUMAP_HAVE_CUDA
      return make_cuda_backend(selection);
#else
      not_built("CUDA");
#endif
    case BackendKind::Hip:
#if CUMAP_HAVE_HIP
      return make_hip_backend(selection);
#else
      not_built("HIP");
#endif
    case BackendKind::Auto: break;
  }
  throw UsageError("no backend resolved");
}

}  // namespace

std::vector<BackendKind> built_backends() {
  std::vector<BackendKind> kinds;
#if CUMAP_HAVE_CUDA
  kinds.push_back(BackendKind::Cuda);
#endif
#if CUMAP_HAVE_HIP
  kinds.push_back(BackendKind::Hip);
#endif
  kinds.push_back(BackendKind::Cpu);
  return kinds;
}

std::vector<BackendKind> unbuilt_gpu_backends() {
  std::vector<BackendKind> kinds;
#if !CUMAP_HAVE_CUDA
  kinds.push_back(BackendKind::Cuda);
#endif
#if !CUMAP_HAVE_HIP
  kinds.push_back(BackendKind::Hip);
#endif
  return kinds;
}

std::string how_to_build(BackendKind kind) {
  return kind == BackendKind::Hip ? "configure with -DCUMAP_HIP=ON (scripts/build-hip)"
                                  : "configure with -DCUMAP_CUDA=ON where NVIDIA's nvcc is installed";
}

int device_count(BackendKind kind) {
  switch (kind) {
    case BackendKind::Cpu: return 1;
    case BackendKind::Cuda:
#if CUMAP_HAVE_CUDA
      return cuda_device_count();
#else
      not_built("CUDA");
#endif
    case BackendKind::Hip:
#if CUMAP_HAVE_HIP
      return hip_device_count();
#else
      not_built("HIP");
#endif
    case BackendKind::Auto: break;
  }
  throw UsageError("device_count: name a backend");
}

std::unique_ptr<Backend> make_backend(const DeviceSelection& selection, std::string* backend_choice) {
  // Across devices: the CUDA backend (Auto resolves to it; others refuse).
  if (selection.devices.size() > 1 && selection.backend == BackendKind::Auto) {
#if CUMAP_HAVE_CUDA
    return make_one(BackendKind::Cuda, selection);
#else
    throw UsageError("--devices (a map across GPUs) needs the CUDA backend; this cumap was built without it");
#endif
  }
  if (selection.backend != BackendKind::Auto) return make_one(selection.backend, selection);
  // Auto: the first GPU backend that finds a device, else the CPU. A GPU
  // backend without a device says so with UsageError; that is expected here,
  // and kept to say why the CPU was chosen.
  std::vector<std::string> why_not;
  for (BackendKind kind : built_backends()) {
    try {
      std::unique_ptr<Backend> backend = make_one(kind, selection);
      if (backend_choice) {
        backend_choice->clear();
        if (kind == BackendKind::Cpu) {
          for (BackendKind gpu : unbuilt_gpu_backends())
            why_not.push_back(fmt::format("{}: not built into this cumap", to_string(gpu)));
          *backend_choice = fmt::format("--backend auto chose the cpu backend (the CPU's cores): {}",
                                        fmt::join(why_not, "; "));
        }
      }
      return backend;
    } catch (const UsageError& e) {
      if (kind == BackendKind::Cpu) throw;
      why_not.push_back(fmt::format("{}: {}", to_string(kind), e.what()));
    }
  }
  throw UsageError("no backend could be started");
}

}  // namespace cumap
