// report.html of `cumap barrier` and `cumap contention` without a browser:
// written with the set, one file that loads nothing, the plot the same PNG
// as the set's file, the table's rows at k = every unit, the verdicts and
// notes, what an incomplete run and the hip backend say, and text from the
// run shown as text. (tests/report/html/browser_test.sh opens it in Chromium.)
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "png_reader.hpp"
#include "publish/output_set.hpp"
#include "report/sync_outputs.hpp"
#include "report/sync_report_html.hpp"
#include "core/sync_summary.hpp"
#include "report/sync_summary_md.hpp"
#include "sync_result_fixture.hpp"
#include "file_text.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

using test::file_text;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string from_base64(const std::string& text) {
  const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::uint32_t bits = 0;
  int n = 0;
  for (char c : text) {
    if (c == '=') break;
    bits = (bits << 6) | static_cast<std::uint32_t>(digits.find(c));
    if ((n += 6) >= 8) out.push_back(static_cast<char>((bits >> (n -= 8)) & 0xff));
  }
  return out;
}

// The bytes of the page's one embedded PNG; empty without one.
std::string embedded_png(const std::string& html) {
  const std::string open = "src=\"data:image/png;base64,";
  const std::size_t begin = html.find(open);
  if (begin == std::string::npos) return "";
  const std::size_t end = html.find('"', begin + open.size());
  return from_base64(html.substr(begin + open.size(), end - begin - open.size()));
}

std::string page_of(const SyncResult& r, const std::string& png = "png") {
  return sync_report_html(sync_summary(r), png);
}

TEST(SyncReportHtml, IsWrittenWithTheSetAndEmbedsThePlotFileAsItIs) {
  test::TempDir dir;
  for (bool contention : {false, true}) {
    const SyncResult r = test::sync_result(contention);
    const fs::path out_dir = dir / (contention ? "C" : "B");
    {
      OutputSet out(out_dir);
      write_sync_outputs(r, out);
      out.publish();
    }
    ASSERT_TRUE(fs::is_regular_file(out_dir / "report.html"));
    const std::string html = file_text(out_dir / "report.html");
    const std::string png = file_text(out_dir / (contention ? "contention.png" : "barrier.png"));
    ASSERT_FALSE(png.empty());
    EXPECT_EQ(count(html, "data:image/png;base64,"), 1u);
    EXPECT_EQ(embedded_png(html), png) << "the page's plot is the file's, byte for byte";
    const Image shown = test::decode_png(embedded_png(html));
    EXPECT_GT(shown.width, 400);
    EXPECT_GT(shown.height, 300);
  }
}

TEST(SyncReportHtml, IsOneFileThatLoadsNothing) {
  for (bool contention : {false, true}) {
    const std::string html = page_of(test::sync_result(contention));
    for (const char* reference : {"http://", "https://", "<script", "<link", "@import", "url(", "//cdn", "<iframe"})
      EXPECT_EQ(html.find(reference), std::string::npos) << reference;
    // Its one source is the plot, in the page itself.
    EXPECT_EQ(count(html, "src="), 1u);
    EXPECT_EQ(count(html, "src=\"data:image/png;base64,"), 1u);
    EXPECT_EQ(html.find("{{CUMAP_"), std::string::npos) << "every placeholder filled";
    EXPECT_NE(html.find("border-collapse"), std::string::npos) << "the report pages' stylesheet";
  }
}

TEST(SyncReportHtml, TablesTheRowsAtEveryUnitWithTheVerdictsAndNotes) {
  const SyncResult r = test::sync_result(false);
  const std::string html = page_of(r);
  const SyncSummary s = sync_summary(r);
  const SyncTable t = sync_table(s);
  ASSERT_EQ(t.rows.size(), 14u);
  EXPECT_EQ(count(html, "<tr"), 1 + t.rows.size()) << "the header and one row per case at k = every unit";
  // alternating k=8, flag, near: per barrier 2331.0 (the fixture's 2220 x 1.05), median 2220.0.
  EXPECT_NE(html.find("<tr><td class=\"words\">alternating</td><td>8</td><td class=\"words\">flag</td>"
                      "<td class=\"words\">near</td><td>2331.0</td><td>2220.0</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"words\">platform</td><td class=\"words\">own</td><td>-</td>"), std::string::npos)
      << "the case the backend could not run, without numbers";
  EXPECT_NE(html.find("<td class=\"words\">not supported here</td>"), std::string::npos);
  EXPECT_EQ(html.find("<td>2</td>"), std::string::npos) << "no row below a set's largest k";
  EXPECT_NE(html.find("<th>ns per barrier</th>"), std::string::npos);
  EXPECT_NE(html.find("two-level 3339.0 ns against flag 2331.0 ns: loses by 43 %"), std::string::npos);
  EXPECT_NE(html.find("<li>one-gpc: the topology (none) has no groups</li>"), std::string::npos);
  EXPECT_NE(html.find("Complete: 32 case(s)."), std::string::npos);
  EXPECT_NE(html.find("cumap barrier"), std::string::npos) << "the command line";
  EXPECT_NE(html.find("NVIDIA H100 80GB HBM3"), std::string::npos);
  EXPECT_EQ(html.find("simulated runtime"), std::string::npos) << "the cuda backend has run on its GPUs";
}

TEST(SyncReportHtml, AnIncompleteRunAndTheHipBackendSaySo) {
  SyncResult r = test::sync_result(true);
  r.interrupted = true;
  r.planned_cases += 5;
  r.discovery.device.backend = "hip";
  // What the hip backend's capabilities say of its numbers; the page shows
  // whatever caveat the backend gives, naming no backend itself.
  r.discovery.capabilities.caveat =
      "Measured by the hip backend, which is compiled and tested against a simulated runtime only and has not been "
      "run on an AMD GPU by its authors: check these numbers against what you expect of the card, and please report "
      "what you see.";
  const std::string html = page_of(r);
  EXPECT_NE(html.find("<div class=\"warn\">Incomplete: 28 of 33 case(s) measured (interrupted)."), std::string::npos)
      << html.substr(0, 3000);
  EXPECT_NE(html.find("<div class=\"warn\">Measured by the hip backend, which is compiled and tested against a "
                      "simulated runtime only"),
            std::string::npos);
  EXPECT_NE(html.find("<th>ops/us</th>"), std::string::npos);
}

TEST(SyncReportHtml, TextFromTheRunIsShownAsText) {
  SyncResult r = test::sync_result(false);
  r.discovery.device.name = "evil <script>alert(1)</script> & co";
  r.discovery.run.command_line = "cumap barrier --out '<b>'";
  r.notes = {"a note with <i>markup</i>"};
  const std::string html = page_of(r);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<b>'"), std::string::npos);
  EXPECT_EQ(html.find("<i>"), std::string::npos);
  EXPECT_NE(html.find("evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; co"), std::string::npos);
  EXPECT_NE(html.find("--out &#39;&lt;b&gt;&#39;"), std::string::npos);
}

TEST(SyncReportHtml, ARunWithoutCasesHasNoPlotAndSaysWhy) {
  SyncResult r = test::sync_result(false);
  r.cases.clear();
  r.interrupted = true;
  const std::string html = page_of(r, "");
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("No case was measured"), std::string::npos);
  EXPECT_EQ(count(html, "<tr"), 1u) << "the table's header alone";
}

}  // namespace
}  // namespace cumap
