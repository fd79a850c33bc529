#pragma once
// The backends the conformance suite runs over: cpu (real threads), hip and
// cuda over their fake runtimes (host logic, g++ only, so every build runs
// them) and, with CUMAP_CUDA, cuda on a GPU (its cases skip without one).
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "backends/hip/hip_backend.hpp"
#include "cumap/backend.hpp"
#include "cumap/error.hpp"
#include "fake_cuda_runtime.hpp"
#include "fake_hip_runtime.hpp"
#if CUMAP_CONFORMANCE_CUDA
#include "backends/cuda/cuda_backend.hpp"
#endif

namespace cumap::conformance {

struct Factory {
  std::string name;
  std::function<std::unique_ptr<Backend>()> make;  // throws UsageError when there is no device
  // The same backend with one unit whose every wait runs out (a fake's
  // silent unit); empty where none can be made to (cpu, a real GPU).
  std::function<std::unique_ptr<Backend>(int unit)> make_with_silent_unit;
};
// gtest prints a failing case's parameter: its name, not its bytes.
inline void PrintTo(const Factory& f, std::ostream* os) { *os << f.name; }

inline std::unique_ptr<Backend> hip_fake(testing::FakeHipConfig config = {}) {
  return make_hip_backend_with_runtime(std::make_unique<testing::FakeHipRuntime>(std::move(config)),
                                       DeviceSelection{});
}
inline std::unique_ptr<Backend> cuda_fake(testing::FakeCudaConfig config = {}) {
  return cuda::make_cuda_backend_on(std::make_unique<testing::FakeCudaRuntime>(std::move(config)));
}

inline std::vector<Factory> factories() {
  std::vector<Factory> f;
  f.push_back({"cpu", [] { return make_cpu_backend(DeviceSelection{}); }, {}});
  f.push_back({"hip_fake", [] { return hip_fake(); },
               [](int unit) {
                 testing::FakeHipConfig c;
                 c.timeout_cu = unit;
                 return hip_fake(c);
               }});
  f.push_back({"cuda_fake", [] { return cuda_fake(); },
               [](int unit) {
                 testing::FakeCudaConfig c;
                 c.timeout_sm = unit;
                 return cuda_fake(c);
               }});
#if CUMAP_CONFORMANCE_CUDA
  f.push_back({"cuda", [] { return make_cuda_backend(DeviceSelection{}); }, {}});
#endif
  return f;
}

// A backend of the suite's parameter and up to four of its units (device 0).
class BackendTest : public ::testing::TestWithParam<Factory> {
 protected:
  void SetUp() override {
    try {
      backend = GetParam().make();
    } catch (const UsageError& e) {
      GTEST_SKIP() << GetParam().name << ": " << e.what();
    }
    const std::vector<int> all = backend->units();
    ASSERT_GE(all.size(), 2u);
    for (std::size_t i = 0; i < std::min<std::size_t>(all.size(), 4); ++i) units.push_back({0, all[i]});
  }

  std::unique_ptr<Backend> backend;
  std::vector<UnitRef> units;
};

inline std::string factory_name(const ::testing::TestParamInfo<Factory>& info) { return info.param.name; }

}  // namespace cumap::conformance
