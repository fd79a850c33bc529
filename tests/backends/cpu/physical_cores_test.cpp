// Physical-core keys from a sysfs tree: SMT siblings share one, and a tree
// without topology files degrades to one core per CPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "backends/cpu/physical_cores.hpp"
#include "temp_dir.hpp"

namespace cumap::cpu {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text << "\n";
}

// cpu c on core c % 2 of package 0: cpus 0,2 and 1,3 are SMT siblings.
fs::path fake_sysfs(const test::TempDir& tmp) {
  const fs::path root = tmp.path();
  for (int c = 0; c < 4; ++c) {
    const fs::path t = root / fmt::format("cpu{}", c) / "topology";
    write(t / "physical_package_id", "0");
    write(t / "core_id", std::to_string(c % 2));
    write(t / "thread_siblings_list", c % 2 == 0 ? "0,2" : "1,3");
  }
  return root;
}

TEST(PhysicalCores, SmtSiblingsShareAKey) {
  const test::TempDir tmp;
  const auto keys = physical_core_keys(fake_sysfs(tmp), {0, 1, 2, 3});
  ASSERT_EQ(keys.size(), 4u);
  EXPECT_EQ(keys.at(0), keys.at(2));
  EXPECT_EQ(keys.at(1), keys.at(3));
  EXPECT_NE(keys.at(0), keys.at(1));
}

TEST(PhysicalCores, WithoutTopologyEachCpuIsItsOwnCore) {
  const auto keys = physical_core_keys("/nonexistent/sysfs", {3, 5});
  EXPECT_EQ(keys, (std::map<int, int>{{3, 3}, {5, 5}}));
}

}  // namespace
}  // namespace cumap::cpu
