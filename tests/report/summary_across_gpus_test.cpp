// A map's summary across GPUs read from meta.json's "gpus" and
// "cross_gpu_structure" written by hand: summary.md's "Across GPUs" and the
// other formats' tables, and the sentences that name the factors that
// change a signal between GPUs and those that do not.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/run_summary.hpp"
#include "report/summary_formats.hpp"
#include "report/summary_json.hpp"
#include "report/summary_md.hpp"

namespace cumap {
namespace {

using Json = nlohmann::json;

Json gpu_row(int a, int b, const std::string& flags_on, const std::string& link, double median, int cells) {
  return {{"placement", "same-line"}, {"gpu_a", a},   {"gpu_b", b},
          {"flags_on", flags_on},     {"link", link}, {"cells", cells},
          {"oneway_ns_median", median}, {"p05_ns", median - 20}, {"p95_ns", median + 30}};
}

Json structure_row(int flags_on, int cls, int side_a, int side_b, double median) {
  return {{"placement", "same-line"}, {"gpu_a", 0},         {"gpu_b", 1},         {"flags_on", "g" + std::to_string(flags_on)},
          {"home_class", cls},        {"side_a", side_a},   {"side_b", side_b},   {"median_ns", median},
          {"p05_ns", median - 10},    {"p95_ns", median + 10}, {"cells", 4356}};
}

// A same-line map's summary with these rows, as meta.json holds them.
RunSummary summary_with(const Json& gpus, const Json& structure, const std::string& unit_name) {
  Json meta = {{"tool", "cumap"},
               {"maps", Json::array({{{"placement", "same-line"}}})},
               {"device", {{"name", "2 x NVIDIA H200"}, {"unit_name", unit_name}}}};
  if (!gpus.is_null()) meta["gpus"] = gpus;
  if (!structure.is_null()) meta["cross_gpu_structure"] = structure;
  return run_summary_from_json(meta);
}

std::size_t gpu_pairs(const RunSummary& s) {
  std::size_t n = 0;
  for (const RunSummary::Map& m : s.maps) n += m.gpu_pairs.size();
  return n;
}
std::size_t structure_rows(const RunSummary& s) {
  std::size_t n = 0;
  for (const RunSummary::Map& m : s.maps) n += m.cross_gpu_structure.size();
  return n;
}

// summary.md's "Across GPUs" section, or "" where it has none.
std::string across_section(const RunSummary& s) {
  const std::string md = summary_markdown(s);
  const std::size_t at = md.find("## Across GPUs");
  return at == std::string::npos ? "" : md.substr(at, md.find("## Timed-out pairs") - at);
}

// Two H200s (2026-11-27), same-line medians by (flags on, class, side on
// g0, side on g1): the cost follows the line's class and the side of the
// SM across the link, not the side beside the flag or the flags' GPU.
struct H200Pair {
  Json gpus = Json::array({gpu_row(0, 0, "g0", "same GPU", 342, 8646), gpu_row(0, 1, "both", "NV18", 877, 17424),
                           gpu_row(0, 1, "g0", "NV18", 877, 17424), gpu_row(0, 1, "g1", "NV18", 877, 17424),
                           gpu_row(1, 1, "g1", "same GPU", 342, 8646)});
  Json structure = Json::array();
  H200Pair() {
    const double g0[2][4] = {{928, 877, 928, 876}, {878, 826, 878, 826}};
    const double g1[2][4] = {{928, 927, 877, 876}, {878, 878, 826, 826}};
    for (int flags_on : {0, 1})
      for (int c : {0, 1})
        for (int k = 0; k < 4; ++k)
          structure.push_back(structure_row(flags_on, c, k / 2, k % 2, (flags_on == 0 ? g0 : g1)[c][k]));
  }
};

TEST(AcrossGpusSummary, H200NumbersNameTheLineClassAndTheSideAcrossTheLink) {
  const H200Pair h200;
  const RunSummary a = summary_with(h200.gpus, h200.structure, "SM");
  ASSERT_EQ(gpu_pairs(a), 5u);
  ASSERT_EQ(structure_rows(a), 16u);
  ASSERT_EQ(a.across_gpu_findings.size(), 3u);
  EXPECT_EQ(a.across_gpu_findings[0],
            "A signal between GPUs (g0 – g1 over NV18) costs 877 ns one-way (the median of 17424 SM pairs, flags on "
            "either GPU), 2.6× the 342 ns of a signal inside one GPU (same-line map): keep the signals a kernel waits "
            "on most inside one GPU.");
  EXPECT_EQ(a.across_gpu_findings[1],
            "What a signal between GPUs costs follows the home class of the flag's line (class-1 lines 50 ns less "
            "than class-0 lines, 5.7 %) and the side of the SM on the GPU without the flag (side-1 SMs 52 ns less "
            "than side-0 SMs, 5.9 %); the side of the SM beside the flag (0 ns) and which GPU holds the flag (0 ns) "
            "change it by under 1 % (same-line map; each combination's median weighs the same).");
  EXPECT_EQ(a.across_gpu_findings[2],
            "Cheapest: a flag in a class-1 line, reached across from side-1 SMs of the other GPU, 826 ns one-way; "
            "dearest: a flag in a class-0 line, reached across from side-0 SMs of the other GPU, 928 ns (12 % more). "
            "For a flag two GPUs share, put it in a class-1 line of the GPU that holds it and let side-1 SMs of the "
            "other GPU be the ones that reach across (homes.json lists every line's class, units.csv every SM's "
            "side).");
}

// On one chip the rule is the other way round: the side beside the flag
// wins when it is the side near the line's home (an interaction of class
// and side, which neither shows alone); the sentences name it so.
TEST(AcrossGpusSummary, ASideNearTheLinesHomeIsNamedAsSuch) {
  Json structure = Json::array();
  for (int flags_on : {0, 1})
    for (int c : {0, 1})
      for (int side_a : {0, 1})
        for (int side_b : {0, 1}) {
          const int beside = flags_on == 0 ? side_a : side_b;
          structure.push_back(structure_row(flags_on, c, side_a, side_b, (beside == c ? 150 : 250) + 900.0));
        }
  const RunSummary a = summary_with(Json(), structure, "unit");
  ASSERT_EQ(a.across_gpu_findings.size(), 2u) << "no GPU x GPU table: no cost sentence";
  EXPECT_NE(a.across_gpu_findings[0].find("follows whether the unit beside the flag is on the side near the line's home "
                               "(near-side units 100 ns less than far-side units"),
            std::string::npos)
      << a.across_gpu_findings[0];
  EXPECT_NE(a.across_gpu_findings[0].find("the home class of the flag's line (0 ns)"), std::string::npos) << a.across_gpu_findings[0];
  EXPECT_NE(a.across_gpu_findings[1].find("let units of the side near its home poll it on its GPU"), std::string::npos)
      << a.across_gpu_findings[1];
}

// Two H200s whose GPU 0 had 64 and 68 SMs a side (2026-11-27): its class
// and side numbers name other halves than GPU 1's, so pooled over the flag's
// GPU every effect cancels. The sentences give the rule per GPU instead of
// "any line will do".
TEST(AcrossGpusSummary, GpusThatNumberTheirHalvesDifferentlyGetARuleEach) {
  const double g0[2][4] = {{876.4, 825.6, 876.0, 825.6}, {926.2, 875.5, 926.9, 876.1}};
  const double g1[2][4] = {{877.0, 876.3, 927.9, 927.3}, {826.0, 825.8, 876.3, 876.6}};
  Json structure = Json::array();
  for (int flags_on : {0, 1})
    for (int c : {0, 1})
      for (int k = 0; k < 4; ++k)
        structure.push_back(structure_row(flags_on, c, k / 2, k % 2, (flags_on == 0 ? g0 : g1)[c][k]));
  const RunSummary a = summary_with(Json(), structure, "SM");
  ASSERT_EQ(a.across_gpu_findings.size(), 5u);
  EXPECT_EQ(a.across_gpu_findings[0].rfind("Each GPU numbers its own home classes and sides", 0), 0u)
      << a.across_gpu_findings[0];
  EXPECT_EQ(a.across_gpu_findings[2].rfind("With its flag on g0, cheapest: a flag in a class-0 line, reached across "
                                           "from side-1 SMs of the other GPU",
                                           0),
            0u)
      << a.across_gpu_findings[2];
  EXPECT_EQ(a.across_gpu_findings[4].rfind("With its flag on g1, cheapest: a flag in a class-1 line, reached across "
                                           "from side-0 SMs of the other GPU",
                                           0),
            0u)
      << a.across_gpu_findings[4];
  for (const std::string& f : a.across_gpu_findings) EXPECT_EQ(f.find("any line"), std::string::npos) << f;
}

TEST(AcrossGpusSummary, NothingThatMattersSaysAnyLineWillDo) {
  Json structure = Json::array();
  for (int flags_on : {0, 1})
    for (int c : {0, 1})
      for (int k = 0; k < 4; ++k) structure.push_back(structure_row(flags_on, c, k / 2, k % 2, 900.0 + k));
  const RunSummary a = summary_with(Json(), structure, "SM");
  ASSERT_EQ(a.across_gpu_findings.size(), 1u);
  EXPECT_EQ(a.across_gpu_findings[0].rfind("None of the home class of the flag's line", 0), 0u) << a.across_gpu_findings[0];
  EXPECT_NE(a.across_gpu_findings[0].find("by more than 1 %"), std::string::npos) << a.across_gpu_findings[0];
  EXPECT_NE(a.across_gpu_findings[0].find("any line and any SMs will do"), std::string::npos) << a.across_gpu_findings[0];
}

TEST(AcrossGpusSummary, SeveralPairsOfGpusGiveTheRangeAndOneGpuNothing) {
  Json gpus = Json::array({gpu_row(0, 0, "g0", "same GPU", 300, 10), gpu_row(0, 1, "both", "NV18", 800, 20),
                           gpu_row(0, 2, "both", "PCIe", 1900, 20)});
  const RunSummary a = summary_with(gpus, Json(), "SM");
  ASSERT_FALSE(a.across_gpu_findings.empty());
  EXPECT_NE(a.across_gpu_findings[0].find("costs 800-1900 ns one-way by pair of GPUs (the cheapest g0 – g1 over NV18, the "
                               "dearest g0 – g2 over PCIe"),
            std::string::npos)
      << a.across_gpu_findings[0];
  const RunSummary none = summary_with(Json(), Json(), "SM");
  EXPECT_FALSE(none.across_gpus());
  EXPECT_TRUE(none.across_gpu_findings.empty());
  EXPECT_EQ(across_section(none), "");
}

TEST(AcrossGpusSummary, MarkdownCsvAndJsonCarryBothTables) {
  const H200Pair h200;
  const RunSummary a = summary_with(h200.gpus, h200.structure, "SM");
  const std::string md = across_section(a);
  EXPECT_EQ(md.rfind("## Across GPUs\n\n- A signal between GPUs", 0), 0u) << md;
  EXPECT_NE(md.find("Cells: SM pairs"), std::string::npos);
  EXPECT_NE(md.find("| placement | GPUs | flags on | link | median | p05–p95 | cells |"), std::string::npos);
  EXPECT_NE(md.find("| same-line | g0 – g1 | both | NV18 | 877.0 | 857.0–907.0 | 17424 |"), std::string::npos) << md;
  EXPECT_NE(md.find("### By home class and side"), std::string::npos);
  EXPECT_NE(md.find("| same-line | g0 – g1 | g1 | 1 | 1 | 1 | 826.0 | 816.0–836.0 | 4356 |"), std::string::npos) << md;
  const std::string csv = summary_csv(a);
  EXPECT_NE(csv.find("same-line,all,gpu-pair,,\"g0-g1, flags on both, NV18\",877.000,857.000,907.000,17424\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("same-line,1,across-gpus,,\"g0-g1, flags on g1, side 1 on g0, side 1 on g1\",826.000,"),
            std::string::npos)
      << csv;
  const Json j = across_gpus_fields_json(a);
  EXPECT_EQ(j["structure"].size(), 16u);
  EXPECT_EQ(j["structure"][0]["flags_on"], "g0");
  EXPECT_EQ(j["findings"].size(), 3u);
}

// A run summary reads both keys from meta.json, so `cumap summary DIR`
// shows the section as the run did.
TEST(AcrossGpusSummary, TheRunSummaryReadsItFromMetaJson) {
  const H200Pair h200;
  const Json meta = {{"tool", "cumap"},
                     {"maps", Json::array({{{"placement", "same-line"}}})},
                     {"device", {{"name", "2 x NVIDIA H200"}, {"unit_name", "SM"}}},
                     {"gpus", h200.gpus},
                     {"cross_gpu_structure", h200.structure}};
  const RunSummary s = run_summary_from_json(meta);
  EXPECT_EQ(s.across_gpu_findings.size(), 3u);
  EXPECT_NE(summary_markdown(s).find("## Across GPUs"), std::string::npos);
  EXPECT_NE(summary_csv(s).find(",across-gpus,"), std::string::npos);
  EXPECT_EQ(summary_fields_json(s)["across_gpus"]["gpu_pairs"].size(), 5u);
}

}  // namespace
}  // namespace cumap
