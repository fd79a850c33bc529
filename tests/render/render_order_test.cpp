// `cumap render --order` on the committed H100 run (plots/h100): its
// meta.json, its directory and its topology.json all give the run's display
// order and its side x GPC groups. That meta.json predates "display_groups":
// the groups are made again from its topology and sides, as the run made them.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cumap/error.hpp"
#include "png_reader.hpp"
#include "report/render_file.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

const fs::path kRun = fs::path(CUMAP_PLOTS_DIR) / "h100";

std::vector<int> display_order_of_the_run() {
  std::ifstream in(kRun / "meta.json");
  return nlohmann::json::parse(in).at("display_order").get<std::vector<int>>();
}

std::vector<std::string> group_names(const RenderPlan& plan) {
  std::vector<std::string> names;
  if (plan.style.groups)
    for (const UnitGroup& g : plan.style.groups->groups) names.push_back(g.name);
  return names;
}

RenderPlan plan_with_order(const fs::path& order) {
  RenderRequest r;
  r.csv = kRun / "matrix-same-line-home0.csv";
  r.png = "unused.png";
  r.order = order;
  return plan_render(r);
}

TEST(OrderFromARun, MetaJsonItsDirectoryAndTopologyJsonGiveTheRunsOrderAndGroups) {
  const std::vector<std::string> sides_then_gpcs{"S0 GPC0",  "S0 GPC4",  "S0 GPC5", "S0 GPC6", "S0 GPC8", "S0 GPC9",
                                                 "S0 GPC10", "S0 GPC11", "S1 GPC1", "S1 GPC2", "S1 GPC3", "S1 GPC7"};
  for (const fs::path& order : {kRun / "meta.json", kRun, kRun / "topology.json"}) {
    SCOPED_TRACE(order.string());
    const RenderPlan plan = plan_with_order(order);
    EXPECT_EQ(plan.panel.matrix.units, display_order_of_the_run());
    EXPECT_EQ(group_names(plan), sides_then_gpcs);
    EXPECT_NE(plan.style.row_title.find("(by side, then group)"), std::string::npos) << plan.style.row_title;
  }
  // The run's own meta.json names its units.
  EXPECT_EQ(plan_with_order(kRun / "meta.json").style.row_title, "SM a (by side, then group)");
}

TEST(OrderFromARun, RendersTheCommittedMatrixWithItsDirectory) {
  test::TempDir dir;
  RenderRequest r;
  r.csv = kRun / "matrix-same-line-home0.csv";
  r.png = dir / "x.png";
  r.order = kRun;
  render_csv_file(r);
  const Image image = test::read_png(r.png);
  EXPECT_GT(image.width, 132 * 6);
}

TEST(OrderFromARun, AnOrderFileThatIsNeitherIsRefusedNamingWhatIsMissing) {
  test::TempDir dir;
  const fs::path odd = dir.file("odd.json", R"({"display": []})");
  try {
    plan_with_order(odd);
    ADD_FAILURE() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("display_order"), std::string::npos) << e.what();
  }
  const fs::path empty_dir = dir / "empty";
  fs::create_directories(empty_dir);
  EXPECT_THROW(plan_with_order(empty_dir), UsageError);
}

}  // namespace
}  // namespace cumap
