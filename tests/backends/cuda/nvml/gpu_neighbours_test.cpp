#include <gtest/gtest.h>

#include "backends/cuda/nvml/gpu_neighbours.hpp"

namespace cumap::cuda {
namespace {

TEST(GpuNeighbours, MissingNvmlIsUnknownWithTheReason) {
  const GpuNeighbours n = find_gpu_neighbours("0000:65:00.0", 1, "libcumap-no-such-nvml.so.1");
  EXPECT_FALSE(n.known);
  EXPECT_TRUE(n.processes.empty());
  EXPECT_NE(n.reason.find("NVML not available"), std::string::npos) << n.reason;
}

TEST(GpuNeighbours, NoBusIdIsUnknown) {
  const GpuNeighbours n = find_gpu_neighbours("", 1, CUMAP_FAKE_NVML);
  EXPECT_FALSE(n.known);
  EXPECT_FALSE(n.reason.empty());
}

TEST(GpuNeighbours, ListsEveryOtherProcessEvenWhenTheFirstBufferIsTooSmall) {
  const GpuNeighbours n = find_gpu_neighbours("0000:65:00.0", 1005, CUMAP_FAKE_NVML);
  ASSERT_TRUE(n.known) << n.reason;
  ASSERT_EQ(n.processes.size(), 19u);  // 20 on the device, minus our own
  for (const GpuProcess& p : n.processes) EXPECT_NE(p.pid, 1005u);
  EXPECT_EQ(n.processes.front().pid, 1000u);
  EXPECT_EQ(n.processes.front().used_memory_bytes, 1024u);
}

TEST(GpuNeighbours, UnknownDeviceIsUnknownWithNvmlsWords) {
  const GpuNeighbours n = find_gpu_neighbours("0000:01:00.0", 1, CUMAP_FAKE_NVML);
  EXPECT_FALSE(n.known);
  EXPECT_NE(n.reason.find("Not Found"), std::string::npos) << n.reason;
}

// Where a real driver is installed, the call works or says why not; it never throws.
TEST(GpuNeighbours, RealLibraryNeverThrows) {
  EXPECT_NO_THROW(find_gpu_neighbours("0000:00:00.0", 1));
}

}  // namespace
}  // namespace cumap::cuda
