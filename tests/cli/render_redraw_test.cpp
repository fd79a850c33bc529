// `cumap render MATRIX --order DIR` draws what the run drew: the same PNG,
// byte for byte, for every matrix the run drew a heatmap of. Over the
// engine's fake chip shaped like an H100 (132 units, two home classes, its
// GPCs), written by write_map_outputs as a run writes them.
#include <filesystem>
#include <fstream>
#include <cmath>
#include <iterator>
#include <map>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/run_summary.hpp"
#include "report/map_outputs.hpp"
#include "publish/output_set.hpp"
#include "report/render_file.hpp"
#include "run/map_run.hpp"
#include "fake_chip_backend.hpp"
#include "small_map.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// PNG width and height from its header.
std::pair<int, int> png_size(const fs::path& p) {
  const std::string bytes = read_bytes(p);
  const auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned char>(bytes[at]) << 24) | (static_cast<unsigned char>(bytes[at + 1]) << 16) |
           (static_cast<unsigned char>(bytes[at + 2]) << 8) | static_cast<unsigned char>(bytes[at + 3]);
  };
  return {be32(16), be32(20)};
}

class RenderRedraw : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("cumap-redraw-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    test::FakeChip spec;
    spec.units = 132;
    spec.noise = 0.01;
    spec.topology = test::h100_like_topology();
    test::FakeChipBackend chip(spec);
    Options o = test::small_options();
    o.lines_per_class = 2;
    o.quiet = true;
    o.out_dir = dir_;
    MapResult r = measure_map(chip, chip.units(), map_settings(o, chip.device(), chip.capabilities()), o);
    r.run.command_line = "test";
    OutputSet out(o.out_dir);
    write_map_outputs(r, out);
    out.publish();
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static nlohmann::json meta() { return nlohmann::json::parse(read_bytes(dir_ / "meta.json")); }
  static fs::path dir_;
};
fs::path RenderRedraw::dir_;

TEST_F(RenderRedraw, RenderWithTheRunsDirectoryOrMetaJsonGivesTheRunsPictureByteForByte) {
  int compared = 0;
  const nlohmann::json m = meta();
  for (const nlohmann::json& h : m.at("heatmaps")) {
    if (h.at("heatmap").is_null()) continue;  // a line spread: the run drew none
    const std::string png = h.at("heatmap").get<std::string>();
    for (const fs::path& order : {dir_, dir_ / "meta.json"}) {
      SCOPED_TRACE(png + " with --order " + order.string());
      RenderRequest r;
      r.csv = dir_ / h.at("matrix").get<std::string>();
      r.png = dir_ / ("redrawn-" + png);
      r.order = order;
      render_csv_file(r);
      EXPECT_EQ(read_bytes(r.png), read_bytes(dir_ / png)) << "the redrawn picture differs from the run's";
      fs::remove(r.png);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 2 * 6);  // two placements: all classes and two home classes, two ways each
}

TEST_F(RenderRedraw, MetaJsonKeepsTheDisplayGroupsAndHowEachMatrixWasDrawn) {
  const nlohmann::json m = meta();
  ASSERT_TRUE(m.contains("display_groups"));
  const nlohmann::json& groups = m.at("display_groups").at("groups");
  ASSERT_FALSE(groups.empty());
  EXPECT_EQ(groups.front().at("name"), "S0 GPC0");
  // Every matrix CSV has its entry; the line spread's says what it holds.
  bool spread = false;
  for (const nlohmann::json& h : m.at("heatmaps")) {
    EXPECT_TRUE(fs::exists(dir_ / h.at("matrix").get<std::string>())) << h.dump();
    if (h.at("matrix").get<std::string>().starts_with("line-spread-")) {
      spread = true;
      EXPECT_EQ(h.at("value_label"), "line spread (ns)");
    }
  }
  EXPECT_TRUE(spread);
}

// The headline's own PNG is drawn on the colour range of its class maps
// (report.html's scale for the placement), not on its own narrow one where
// line-to-line noise would fill the colormap; its panel title says so, with
// the line-set agreement. The class maps keep their own range.
TEST_F(RenderRedraw, TheHeadlineIsDrawnOnItsClassMapsScaleAndSaysSo) {
  const nlohmann::json m = meta();
  std::map<std::string, nlohmann::json> records;
  for (const nlohmann::json& h : m.at("heatmaps")) records[h.at("matrix").get<std::string>()] = h;
  for (const std::string placement : {"same-line", "split-line"}) {
    SCOPED_TRACE(placement);
    const nlohmann::json& headline = records.at("matrix-" + placement + ".csv");
    ASSERT_TRUE(headline.contains("scale"));
    const double lo = headline["scale"][0], hi = headline["scale"][1];
    double class_lo = INFINITY, class_hi = -INFINITY;
    for (const nlohmann::json& map : m.at("maps"))
      if (map.at("placement") == placement)
        for (const nlohmann::json& c : map.at("per_class"))
          class_lo = std::min(class_lo, c.at("oneway_ns").at("min").get<double>()),
          class_hi = std::max(class_hi, c.at("oneway_ns").at("max").get<double>());
    EXPECT_LE(lo, class_lo + 0.01);
    EXPECT_GE(hi, class_hi - 0.01);
    // Wider than the headline's own cells: the near and far classes set it.
    const nlohmann::json* own = nullptr;
    for (const nlohmann::json& map : m.at("maps"))
      if (map.at("placement") == placement) own = &map.at("oneway_ns");
    ASSERT_NE(own, nullptr);
    EXPECT_LT(lo, own->at("min").get<double>());
    EXPECT_GT(hi, own->at("max").get<double>());
    const std::string title = headline.at("panel_title");
    EXPECT_NE(title.find("on the scale of its 2 home-class maps"), std::string::npos) << title;
    EXPECT_NE(title.find("cells reproduce between line sets at r "), std::string::npos) << title;
    EXPECT_FALSE(records.at("matrix-" + placement + "-home0.csv").contains("scale"));
  }
}

// heatmap.png: each placement's two home classes and all classes together,
// three panels of 132 units a row, a row per placement.
TEST_F(RenderRedraw, TheOverviewShowsEveryClassAndTheClassesTogetherOnePlacementARow) {
  const auto [width, height] = png_size(dir_ / "heatmap.png");
  const auto [one_width, one_height] = png_size(dir_ / "heatmap-same-line.png");
  EXPECT_GT(width, 3 * 132 * 6);
  EXPECT_LT(width, 4 * 132 * 6 + 400);
  EXPECT_GT(height, 2 * 132 * 6);
  EXPECT_LT(height, 2 * one_height + 200);
}

}  // namespace
}  // namespace cumap
