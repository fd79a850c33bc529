// What NVML adds to a run's DeviceInfo, against the fake NVML (fake_nvml.cpp).
#include <gtest/gtest.h>

#include "backends/cuda/gpu_nvml_facts.hpp"

namespace cumap::cuda {
namespace {

DeviceInfo two_gpus() {
  DeviceInfo d;
  d.backend = "cuda";
  d.extra["gpus"] = nlohmann::json::array({{{"device_ordinal", 2}, {"pci_bus_id", "0000:65:00.0"}},
                                            {{"device_ordinal", 5}, {"pci_bus_id", "0000:66:00.0"}}});
  return d;
}

TEST(GpuNvmlFacts, EachGpuGetsItsSerialAndTheLinkIsNamedByDeviceOrdinals) {
  DeviceInfo d = two_gpus();
  add_serials_and_links(d, CUMAP_FAKE_NVML);
  EXPECT_EQ(d.extra["gpus"][0]["serial"], "FAKE65");
  EXPECT_EQ(d.extra["gpus"][1]["serial"], "FAKE66");
  ASSERT_EQ(d.extra["links"].size(), 1u);
  EXPECT_EQ(d.extra["links"][0]["gpu_a"], 2);
  EXPECT_EQ(d.extra["links"][0]["gpu_b"], 5);
  EXPECT_EQ(d.extra["links"][0]["link"], "NV18");
}

TEST(GpuNvmlFacts, OneGpuGetsASerialAndNoLinks) {
  DeviceInfo d;
  d.extra["pci_bus_id"] = "0000:67:00.0";
  add_serials_and_links(d, CUMAP_FAKE_NVML);
  EXPECT_EQ(d.extra["serial"], "FAKE67");
  EXPECT_FALSE(d.extra.contains("links"));
}

TEST(GpuNvmlFacts, WithoutNvmlSerialsAreEmptyAndLinksUnknownWithTheReason) {
  DeviceInfo d = two_gpus();
  add_serials_and_links(d, "libcumap-no-such-nvml.so.1");
  EXPECT_EQ(d.extra["gpus"][0]["serial"], "");
  EXPECT_EQ(d.extra["links"][0]["link"], "unknown");
  EXPECT_NE(d.extra["links"][0]["reason"].get<std::string>().find("NVML not available"), std::string::npos);
}

TEST(GpuNvmlFacts, ABackendWithoutPciBusIdsIsLeftAsItIs) {
  DeviceInfo d;
  d.backend = "cpu";
  add_serials_and_links(d, CUMAP_FAKE_NVML);
  EXPECT_TRUE(d.extra.empty() || !d.extra.contains("serial"));
}

}  // namespace
}  // namespace cumap::cuda
