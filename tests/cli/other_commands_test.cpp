// --version, --help and `cumap topology`.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace cumap::test {
namespace {

TEST(Version, PrintsVersionAndExitsZero) {
  TempDir cwd;
  const RunResult r = run_cumap({"--version"}, cwd.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(CUMAP_VERSION), std::string::npos) << r.out;
  EXPECT_TRUE(snapshot(cwd.path()).empty());
}

TEST(Help, ListsTheFlagsAndSubcommandsAndExitsZero) {
  TempDir cwd;
  const RunResult r = run_cumap({"--help"}, cwd.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* word : {"--units", "--backend", "--out", "render", "topology", "homes"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word << " missing from --help";
  EXPECT_TRUE(snapshot(cwd.path()).empty()) << "--help wrote files";
}

TEST(Topology, NamesEveryGroupItFinds) {
  TempDir cwd;
  const RunResult r = run_cumap({"topology", "--backend", "cpu", "--json", "topo.json"}, cwd.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto topo = nlohmann::json::parse(read_text(cwd.path() / "topo.json"));
  ASSERT_FALSE(topo.at("groups").empty());
  for (const auto& g : topo.at("groups"))
    EXPECT_NE(r.out.find(g.at("name").get<std::string>()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(cpu)"), std::string::npos) << r.out;
}

TEST(Topology, UnknownBackendIsAUsageError) {
  TempDir cwd;
  const RunResult r = run_cumap({"topology", "--backend", "nosuch"}, cwd.path());
  EXPECT_EQ(r.exit_code, 2);
  ASSERT_EQ(r.err_lines().size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("cumap: error:", 0), 0u) << r.err;
}

}  // namespace
}  // namespace cumap::test
