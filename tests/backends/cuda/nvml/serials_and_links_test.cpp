// Serials and links between GPUs, from a fake NVML (fake_nvml.cpp) and a missing one.
#include <gtest/gtest.h>

#include "backends/cuda/nvml/serials_and_links.hpp"

namespace cumap::cuda {
namespace {

TEST(SerialsAndLinks, CountsTheNvLinksBetweenTwoGpusAsNvidiaSmiDoes) {
  const SerialsAndLinks f = serials_and_links({"0000:65:00.0", "0000:66:00.0"}, CUMAP_FAKE_NVML);
  EXPECT_EQ(f.reason, "");
  ASSERT_EQ(f.serials.size(), 2u);
  EXPECT_EQ(f.serials[0], "FAKE65");
  EXPECT_EQ(f.serials[1], "FAKE66");
  ASSERT_EQ(f.links.size(), 1u);
  EXPECT_EQ(f.links[0].a, 0u);
  EXPECT_EQ(f.links[0].b, 1u);
  EXPECT_EQ(f.links[0].link, "NV18");
}

TEST(SerialsAndLinks, GpusWithoutNvLinkBetweenThemMeetOnPcie) {
  const SerialsAndLinks f = serials_and_links({"0000:65:00.0", "0000:67:00.0", "0000:66:00.0"}, CUMAP_FAKE_NVML);
  ASSERT_EQ(f.links.size(), 3u);  // (0,1) (0,2) (1,2)
  EXPECT_EQ(f.links[0].link, "PCIe SYS");
  EXPECT_EQ(f.links[1].link, "NV18");
  EXPECT_EQ(f.links[2].link, "PCIe SYS");
}

TEST(SerialsAndLinks, GpusOnNvSwitchesSaySo) {
  const SerialsAndLinks f = serials_and_links({"0000:68:00.0", "0000:69:00.0"}, CUMAP_FAKE_NVML);
  ASSERT_EQ(f.links.size(), 1u);
  EXPECT_EQ(f.links[0].link, "NV18 via NVSwitch");
}

TEST(SerialsAndLinks, AnUnknownGpuLeavesItsSerialEmptyAndItsLinksUnknownWithNvmlsWords) {
  const SerialsAndLinks f = serials_and_links({"0000:65:00.0", "0000:01:00.0"}, CUMAP_FAKE_NVML);
  EXPECT_EQ(f.serials[0], "FAKE65");
  EXPECT_EQ(f.serials[1], "");
  ASSERT_EQ(f.links.size(), 1u);
  EXPECT_EQ(f.links[0].link, "unknown");
  EXPECT_NE(f.links[0].reason.find("Not Found"), std::string::npos) << f.links[0].reason;
}

TEST(SerialsAndLinks, MissingNvmlMakesEveryLinkUnknownWithTheReason) {
  const SerialsAndLinks f = serials_and_links({"0000:65:00.0", "0000:66:00.0"}, "libcumap-no-such-nvml.so.1");
  EXPECT_NE(f.reason.find("NVML not available"), std::string::npos) << f.reason;
  EXPECT_EQ(f.serials, (std::vector<std::string>{"", ""}));
  ASSERT_EQ(f.links.size(), 1u);
  EXPECT_EQ(f.links[0].link, "unknown");
  EXPECT_EQ(f.links[0].reason, f.reason);
}

// Where a real driver is installed, the call works or says why not; it never throws.
TEST(SerialsAndLinks, RealLibraryNeverThrows) { EXPECT_NO_THROW(serials_and_links({"0000:00:00.0", "x"})); }

}  // namespace
}  // namespace cumap::cuda
