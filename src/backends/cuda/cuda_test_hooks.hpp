#pragma once
// Fault injection for the CUDA backend's own tests, never reachable from a
// plan or the command line: the device test builds its backend with
// make_cuda_backend_on(..., hooks).
namespace cumap::cuda {

struct CudaTestHooks {
  int silent_sm = -1;  // this SM takes its turns but never answers: its partners must time out
  // The NVML the backend asks for serials, links and neighbours (null: the
  // driver's); tests of the host logic name a fake one or a missing one.
  const char* nvml_library = nullptr;
};

}  // namespace cumap::cuda
