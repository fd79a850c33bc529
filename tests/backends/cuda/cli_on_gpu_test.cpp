// The whole command on a GPU: files appear, exit 0.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "gpu_available.hpp"
#include "temp_dir.hpp"

namespace {

// The cumap binary: $CUMAP_BINARY, else where the build puts it relative to
// this test binary (so a build tree copied elsewhere still finds it).
std::filesystem::path cumap_binary() {
  if (const char* env = std::getenv("CUMAP_BINARY")) return env;
  return std::filesystem::read_symlink("/proc/self/exe").parent_path() / CUMAP_BINARY_FROM_TEST;
}

TEST(Device, CommandWritesEveryOutput) {
  CUMAP_REQUIRE_GPU();
  const auto binary = cumap_binary();
  if (!std::filesystem::exists(binary)) GTEST_SKIP() << "no cumap binary at " << binary << " (set CUMAP_BINARY)";
  const cumap::test::TempDir tmp;
  const auto dir = tmp / "out";
  const std::string cmd =
      binary.string() + " --backend cuda --units 0-5 --iters 50 --samples 3 --quiet --out " + dir.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  for (const char* f : {"matrix-same-line.csv", "matrix-split-line.csv", "pairs.csv", "meta.json",
                        "heatmap-same-line.png", "heatmap-split-line.png", "heatmap.png"})
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  std::ifstream meta(dir / "meta.json");
  const auto j = nlohmann::json::parse(meta);
  EXPECT_EQ(j["backend"], "cuda");
  EXPECT_GT(j["device"]["clock_hz"].get<double>(), 1e8);
}

TEST(Device, HomesCommandWritesItsFiles) {
  CUMAP_REQUIRE_GPU();
  const auto binary = cumap_binary();
  if (!std::filesystem::exists(binary)) GTEST_SKIP() << "no cumap binary at " << binary << " (set CUMAP_BINARY)";
  const cumap::test::TempDir tmp;
  const auto dir = tmp / "out";
  // Every SM over 64 lines: enough for an H100's two L2 halves to show, in seconds.
  const std::string cmd = binary.string() + " homes --backend cuda --home-lines 64 --quiet --out " + dir.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  for (const char* f : {"homes.csv", "homes.json", "heatmap-homes.png", "meta.json"})
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  std::ifstream meta_file(dir / "meta.json");
  const auto meta = nlohmann::json::parse(meta_file);
  EXPECT_EQ(meta["backend"], "cuda");
  EXPECT_EQ(meta["homes"]["lines_probed"], 64);
  EXPECT_GE(meta["homes"]["class_count"].get<int>(), 1);
  EXPECT_EQ(meta["display_order"].size(), meta["device"]["unit_count"].get<std::size_t>());
  EXPECT_FALSE(meta.contains("maps"));
}

}  // namespace
