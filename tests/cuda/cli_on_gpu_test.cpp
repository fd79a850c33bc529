// The whole command on a GPU: files appear, exit 0.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "gpu_available.hpp"

namespace {

TEST(cuda_device, CommandWritesEveryOutput) {
  CUMAP_REQUIRE_GPU();
  const auto dir = std::filesystem::temp_directory_path() / "cumap_cli_on_gpu";
  std::filesystem::remove_all(dir);
  const std::string cmd = std::string(CUMAP_BINARY) + " --backend cuda --units 0-5 --iters 50 --samples 3 --quiet --out " +
                          dir.string();
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
