// The whole command on a GPU: files appear, exit 0.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "gpu_available.hpp"

namespace {

// The cumap binary: $CUMAP_BINARY, else where the build puts it relative to
// this test binary (so a build tree copied elsewhere still finds it).
std::filesystem::path cumap_binary() {
  if (const char* env = std::getenv("CUMAP_BINARY")) return env;
  return std::filesystem::read_symlink("/proc/self/exe").parent_path() / CUMAP_BINARY_FROM_TEST;
}

TEST(cuda_device, CommandWritesEveryOutput) {
  CUMAP_REQUIRE_GPU();
  const auto binary = cumap_binary();
  if (!std::filesystem::exists(binary)) GTEST_SKIP() << "no cumap binary at " << binary << " (set CUMAP_BINARY)";
  const auto dir = std::filesystem::temp_directory_path() / "cumap_cli_on_gpu";
  std::filesystem::remove_all(dir);
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
  std::filesystem::remove_all(dir);
}

}  // namespace
