// What NVML adds to a run's DeviceInfo, against the fake NVML (fake_nvml.cpp).
#include <gtest/gtest.h>

#include "backends/cuda/nvml/device_info_from_nvml.hpp"

namespace cumap::cuda {
namespace {

DeviceInfo two_gpus() {
  DeviceInfo d;
  d.backend = "cuda";
  d.gpus = {{2, "fake", "0000:65:00.0", ""}, {5, "fake", "0000:66:00.0", ""}};
  return d;
}

TEST(DeviceInfoFromNvml, EachGpuGetsItsSerialAndTheLinkIsNamedByDeviceOrdinals) {
  DeviceInfo d = two_gpus();
  add_nvml_facts(d, CUMAP_FAKE_NVML);
  EXPECT_EQ(d.gpus[0].serial, "FAKE65");
  EXPECT_EQ(d.gpus[1].serial, "FAKE66");
  ASSERT_EQ(d.links.size(), 1u);
  EXPECT_EQ(d.links[0].gpu_a, 2);
  EXPECT_EQ(d.links[0].gpu_b, 5);
  EXPECT_EQ(d.links[0].link, "NV18");
  ASSERT_EQ(d.neighbours.size(), 2u);
  EXPECT_EQ(d.neighbours[1].pci_bus_id, "0000:66:00.0");
}

TEST(DeviceInfoFromNvml, OneGpuGetsASerialAndNoLinks) {
  DeviceInfo d;
  d.gpus = {{0, "fake", "0000:67:00.0", ""}};
  add_nvml_facts(d, CUMAP_FAKE_NVML);
  EXPECT_EQ(d.gpus[0].serial, "FAKE67");
  EXPECT_TRUE(d.links.empty());
}

TEST(DeviceInfoFromNvml, WithoutNvmlSerialsAreEmptyAndLinksUnknownWithTheReason) {
  DeviceInfo d = two_gpus();
  add_nvml_facts(d, "libcumap-no-such-nvml.so.1");
  EXPECT_EQ(d.gpus[0].serial, "");
  ASSERT_EQ(d.links.size(), 1u);
  EXPECT_EQ(d.links[0].link, "unknown");
  EXPECT_NE(d.links[0].reason.find("NVML not available"), std::string::npos);
  ASSERT_EQ(d.neighbours.size(), 2u);
  EXPECT_FALSE(d.neighbours[0].known);
}

TEST(DeviceInfoFromNvml, ADeviceWithoutGpusIsLeftAsItIs) {
  DeviceInfo d;
  d.backend = "cpu";
  add_nvml_facts(d, CUMAP_FAKE_NVML);
  EXPECT_TRUE(d.gpus.empty());
  EXPECT_TRUE(d.links.empty());
  EXPECT_TRUE(d.neighbours.empty());
}

}  // namespace
}  // namespace cumap::cuda
