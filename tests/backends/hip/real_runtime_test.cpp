#include <gtest/gtest.h>

#include "backends/hip/hip_backend.hpp"
#include "backends/hip/hip_runtime_real.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

// Runs wherever the HIP backend is built. Without an AMD GPU it checks the
// user-facing refusal; with one it checks that the device is described.
TEST(RealRuntime, EitherDescribesTheGpuOrSaysThereIsNone) {
  const int devices = make_real_hip_runtime()->device_count();
  ASSERT_GE(devices, 0);
  if (devices == 0) {
    try {
      make_hip_backend(DeviceSelection{});
      FAIL() << "expected UsageError";
    } catch (const UsageError& e) {
      EXPECT_STREQ(e.what(), "no AMD GPU found (HIP runtime reports 0 devices)");
    }
    return;
  }
  const auto backend = make_hip_backend(DeviceSelection{});
  const DeviceInfo d = backend->device();
  EXPECT_EQ(d.backend, "hip");
  EXPECT_GT(d.unit_count, 0);
  EXPECT_EQ(backend->units().size(), static_cast<std::size_t>(d.unit_count));
}

}  // namespace
}  // namespace cumap
