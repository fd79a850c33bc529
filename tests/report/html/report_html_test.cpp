// report.html without a browser: one self-contained file, the data it embeds
// reads back as the result, a device name cannot end its script, and a
// 132-SM page is small enough to mail. (browser_test.sh opens it in Chromium.)
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "fake_h100_result.hpp"
#include "core/map_result.hpp"
#include "core/run_summary.hpp"
#include "report/report_html.hpp"

namespace cumap {
namespace {

using nlohmann::json;

// The fake runs are made once: each takes a moment.
const MapResult& small_run() {
  static const MapResult r = test::fake_h100_result(24);
  return r;
}
const MapResult& full_run() {
  static const MapResult r = test::fake_h100_result(132);
  return r;
}

// The page of `r` with the summary a run makes of it.
std::string page_of(const MapResult& r) { return report_html(r, run_summary(r)); }

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The embedded JSON, as the page's script reads it.
json embedded_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"cumap-data\">";
  const std::size_t begin = html.find(open);
  EXPECT_NE(begin, std::string::npos);
  const std::size_t end = html.find("</script>", begin);
  return json::parse(html.substr(begin + open.size(), end - begin - open.size()));
}

std::vector<std::uint8_t> from_base64(const std::string& text) {
  const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<std::uint8_t> out;
  std::uint32_t bits = 0;
  int n = 0;
  for (char c : text) {
    if (c == '=') break;
    bits = (bits << 6) | static_cast<std::uint32_t>(digits.find(c));
    if ((n += 6) >= 8) out.push_back(static_cast<std::uint8_t>(bits >> (n -= 8)));
  }
  return out;
}

// The codes of an encoded array as values: NaN not measured, inf timed out.
std::vector<double> decode(const json& encoded) {
  const std::vector<std::uint8_t> bytes = from_base64(encoded.at("b64").get<std::string>());
  const double lo = encoded.at("lo"), step = encoded.at("step");
  std::vector<double> values;
  for (std::size_t i = 0; i + 1 < bytes.size(); i += 2) {
    const int code = bytes[i] | (bytes[i + 1] << 8);
    values.push_back(code == kReportNotMeasured ? kNaN : code == kReportTimedOut ? INFINITY : lo + code * step);
  }
  return values;
}

// `m` in display order, as the page keeps it (above the diagonal: unordered).
std::vector<double> kept(const ValueMatrix& m, const std::vector<int>& order) {
  const ValueMatrix shown = m.reordered(order);
  std::vector<double> out;
  for (std::size_t r = 0; r < shown.size(); ++r)
    for (std::size_t c = r + 1; c < shown.size(); ++c) out.push_back(shown.at(r, c));
  return out;
}

void expect_same_values(const std::vector<double>& page, const std::vector<double>& result, double step,
                        const std::string& what) {
  ASSERT_EQ(page.size(), result.size()) << what;
  for (std::size_t i = 0; i < page.size(); ++i) {
    if (std::isnan(result[i])) {
      EXPECT_TRUE(std::isnan(page[i]) || std::isinf(page[i])) << what << " cell " << i;
      continue;
    }
    EXPECT_NEAR(page[i], result[i], step / 2 + 1e-9) << what << " cell " << i;
  }
}

TEST(ReportHtml, IsOneFileThatLoadsNothing) {
  const std::string html = page_of(small_run());
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  for (const char* reference : {"http://", "https://", "src=", "@import", "url(", "<link", "//cdn"})
    EXPECT_EQ(html.find(reference), std::string::npos) << reference;
  EXPECT_EQ(html.find("{{CUMAP_DATA}}"), std::string::npos) << "the data is in place of its placeholder";
}

TEST(ReportHtml, DataReadsBackAsTheResult) {
  const MapResult& r = small_run();
  const json d = embedded_data(page_of(r));
  EXPECT_EQ(d["device"]["name"], r.device.name);
  EXPECT_EQ(d["units"]["ids"].get<std::vector<int>>(), r.display_order);
  const std::vector<int> sides = d["units"]["side"].get<std::vector<int>>();
  const UnitSides truth = unit_sides(r.homes);
  for (std::size_t i = 0; i < r.display_order.size(); ++i)
    for (std::size_t u = 0; u < truth.units.size(); ++u) {
      if (truth.units[u] == r.display_order[i]) {
        EXPECT_EQ(sides[i], truth.sides[u]);
      }
    }
  ASSERT_EQ(d["units"]["groups"].size(), r.display_groups.groups.size());
  EXPECT_EQ(d["units"]["groups"][0], r.display_groups.groups[0].name);

  ASSERT_EQ(d["placements"].size(), r.placements.size());
  for (std::size_t k = 0; k < r.placements.size(); ++k) {
    const PlacementResult& p = r.placements[k];
    const json& page = d["placements"][k];
    EXPECT_EQ(page["name"], to_string(p.placement));
    ASSERT_EQ(page["classes"].size(), p.per_class.size());
    ASSERT_GT(p.per_class.size(), 1u) << "the fake chip has two home classes";
    for (std::size_t c = 0; c < p.per_class.size(); ++c) {
      const json& cls = page["classes"][c];
      EXPECT_EQ(cls["home_class"], p.per_class[c].spec.home_class);
      expect_same_values(decode(cls["value"]), kept(p.per_class_ns[c], r.display_order), cls["value"]["step"],
                         "class value");
      expect_same_values(decode(cls["spread"]), kept(p.per_class[c].line_spread_ns(), r.display_order),
                         cls["spread"]["step"], "class line spread");
      const std::vector<double> p05 = decode(cls["p05"]), value = decode(cls["value"]), p95 = decode(cls["p95"]);
      for (std::size_t i = 0; i < value.size(); ++i)
        EXPECT_TRUE(p05[i] <= value[i] + 0.01 && value[i] <= p95[i] + 0.01) << "cell " << i;
    }
    expect_same_values(decode(page["average"]["value"]), kept(p.headline_ns, r.display_order),
                       page["average"]["value"]["step"], "class average");
    expect_same_values(decode(page["average"]["spread"]), kept(p.line_spread_ns, r.display_order),
                       page["average"]["spread"]["step"], "line spread");
  }
  ASSERT_EQ(d["structure"].size(), r.structure.size());
  for (std::size_t i = 0; i < r.structure.size(); ++i) {
    // The summary's words, not the page's own: one vocabulary (summary.md, the console).
    EXPECT_EQ(d["structure"][i]["where"], structure_words(r.structure[i]));
    EXPECT_DOUBLE_EQ(d["structure"][i]["median_ns"], r.structure[i].median_ns);
  }
  ASSERT_EQ(d["homes"].size(), r.homes.size());
  const json& homes = d["homes"][0];
  EXPECT_EQ(homes["rows"].size() * homes["lines"].size(), decode(homes["value"]).size());
  EXPECT_EQ(homes["class_count"], r.homes[0].classes.class_count);
}

TEST(ReportHtml, TimedOutAndUnmeasuredCellsKeepTheirKind) {
  MapResult r = small_run();
  PlacementResult& p = r.placements.front();
  // One pair times out on one line of class 0; another was never measured.
  const int a = r.display_order[0], b = r.display_order[1];
  for (PairStats& s : p.per_class[0].pairs)
    if ((s.a == a && s.b == b) || (s.a == b && s.b == a)) s.timed_out = true;
  const int c = r.display_order[2], e = r.display_order[3];
  for (LatencyMap& m : p.per_class)
    std::erase_if(m.pairs, [&](const PairStats& s) { return (s.a == c && s.b == e) || (s.a == e && s.b == c); });
  const MapSpec headline = p.headline;
  summarize_placement(p, headline);

  const json d = embedded_data(page_of(r));
  const std::vector<double> class0 = decode(d["placements"][0]["classes"][0]["value"]);
  const std::vector<double> class1 = decode(d["placements"][0]["classes"][1]["value"]);
  const std::vector<double> average = decode(d["placements"][0]["average"]["value"]);
  const std::size_t n = r.display_order.size();
  const auto cell = [n](std::size_t row, std::size_t col) { return row * n - row * (row + 1) / 2 + (col - row - 1); };
  EXPECT_TRUE(std::isinf(class0[cell(0, 1)]));
  EXPECT_TRUE(std::isfinite(class1[cell(0, 1)]));
  EXPECT_TRUE(std::isinf(average[cell(0, 1)])) << "a class's timed-out line makes the average's cell timed out";
  for (const auto* m : {&class0, &class1, &average}) EXPECT_TRUE(std::isnan((*m)[cell(2, 3)]));
}

TEST(ReportHtml, ADeviceNameCannotEndTheScript) {
  MapResult r = small_run();
  r.device.name = "evil</script><script>document.body.dataset.status='pwned'</script><!-- </SCRIPT >";
  r.run.command_line = "cumap --out '</script>'";
  const std::string html = page_of(r);
  const std::string plain = page_of(small_run());
  // The page's own script elements end where they did; the data adds none.
  std::string lower = html, plain_lower = plain;
  for (std::string* s : {&lower, &plain_lower})
    for (char& ch : *s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  EXPECT_EQ(count(lower, "</script"), count(plain_lower, "</script"));
  EXPECT_EQ(count(lower, "<!--"), count(plain_lower, "<!--"));
  const json d = embedded_data(html);
  EXPECT_EQ(d["device"]["name"], r.device.name);
  EXPECT_EQ(d["run"]["command_line"], r.run.command_line);
}

TEST(ReportHtml, AMapAcrossGpusNamesUnitsByGpuAndHasHomesPerGpu) {
  const MapResult r = test::fake_h100_result(12, "two fake chips", 2);
  const json d = embedded_data(page_of(r));
  const json& units = d["units"];
  ASSERT_EQ(units["labels"].size(), 24u);
  EXPECT_EQ(units["labels"][0], "g0.0");
  EXPECT_EQ(units["labels"][23].get<std::string>().substr(0, 3), "g1.");
  EXPECT_EQ(units["groups"][0].get<std::string>().substr(0, 3), "g0 ") << "display groups name the GPU first";
  ASSERT_EQ(d["homes"].size(), 2u);
  for (const json& h : d["homes"]) {
    EXPECT_EQ(h["rows"].size(), 12u) << "each GPU's homes table has its own units";
    EXPECT_EQ(h["row_side"].size(), 12u);
  }
  expect_same_values(decode(d["placements"][0]["average"]["value"]), kept(r.placements[0].headline_ns, r.display_order),
                     d["placements"][0]["average"]["value"]["step"], "class average across GPUs");
}

// The page's "Across GPUs" section draws what summary.md says: the same
// tables and sentences, from the same summary.
TEST(ReportHtml, AMapAcrossGpusHasTheAcrossGpusSectionOfSummaryMd) {
  const MapResult r = test::fake_h100_result(12, "two fake chips", 2);
  const std::string html = page_of(r);
  EXPECT_NE(html.find("<section id=\"across-section\">"), std::string::npos);
  EXPECT_NE(html.find("function drawAcrossGpus()"), std::string::npos);
  const json d = embedded_data(html);
  const json& a = d["across_gpus"];
  const RunSummary expected = run_summary(r);
  std::size_t gpu_pairs = 0, structure = 0;
  for (const RunSummary::Map& m : expected.maps) {
    gpu_pairs += m.gpu_pairs.size();
    structure += m.cross_gpu_structure.size();
  }
  ASSERT_FALSE(expected.across_gpu_findings.empty());
  EXPECT_EQ(a["findings"], expected.across_gpu_findings);
  EXPECT_EQ(a["gpu_pairs"].size(), gpu_pairs);
  ASSERT_EQ(a["structure"].size(), structure);
  EXPECT_FALSE(a["structure"].empty());
  EXPECT_EQ(a["structure"][0]["flags_on"], "g0");
  // One GPU: empty lists, and the page hides the section.
  const json one = embedded_data(page_of(small_run()))["across_gpus"];
  EXPECT_TRUE(one["gpu_pairs"].empty());
  EXPECT_TRUE(one["structure"].empty());
  EXPECT_TRUE(one["findings"].empty());
}

// The page's zoomed-out section draws the summary's views: each map's ten
// slowest and fastest pairs, the units that stand out and the block means
// (side x side and group x group per class), the same numbers summary.md has.
TEST(ReportHtml, TheViewsAreTheSummarysSlowestFastestAndBlockMeans) {
  const std::string html = page_of(small_run());
  EXPECT_NE(html.find("<section id=\"views-section\">"), std::string::npos);
  EXPECT_NE(html.find("function drawViews()"), std::string::npos);
  const json v = embedded_data(html)["views"];
  const RunSummary expected = run_summary(small_run());
  ASSERT_TRUE(expected.has_views);
  ASSERT_EQ(v["extreme_pairs"].size(), expected.extremes.size());
  const RunSummary::Extremes& first = expected.extremes.front();
  ASSERT_EQ(v["extreme_pairs"][0]["slowest"].size(), 10u);
  EXPECT_EQ(v["extreme_pairs"][0]["fastest"].size(), 10u);
  EXPECT_DOUBLE_EQ(v["extreme_pairs"][0]["slowest"][0]["ns"].get<double>(), first.slowest.front().ns);
  EXPECT_GE(first.slowest.front().ns, first.slowest.back().ns);
  EXPECT_LE(first.fastest.front().ns, first.fastest.back().ns);
  EXPECT_GE(first.slowest.back().ns, first.fastest.back().ns);
  ASSERT_EQ(v["block_means"].size(), expected.blocks.size());
  bool sides = false, groups = false;
  for (const json& b : v["block_means"]) {
    const std::size_t n = b["blocks"].size();
    EXPECT_EQ(b["mean_ns"].size(), n * n);
    sides |= b["by"] == "side";
    groups |= b["by"] == "group";
  }
  EXPECT_TRUE(sides);
  EXPECT_TRUE(groups);
  EXPECT_EQ(v["standing_out"].size(), expected.standing_out.size());
}

TEST(ReportHtml, A132SmPageIsSmallEnoughToMail) {
  const std::string html = page_of(full_run());
  RecordProperty("bytes", static_cast<int>(html.size()));
  std::printf("report.html of a 132-SM map (2 placements x 2 home classes, 512 home lines): %zu bytes\n", html.size());
  EXPECT_LT(html.size(), 1000u * 1000u);
}

}  // namespace
}  // namespace cumap
