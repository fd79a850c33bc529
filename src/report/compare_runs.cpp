// `cumap compare` over two run directories (compare_runs.hpp).
#include "report/compare_runs.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <set>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "publish/output_set.hpp"
#include "report/compare_formats.hpp"
#include "report/heatmap_png.hpp"
#include "report/order_file.hpp"
#include "render/render.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

// Every matrix file by name: those of both compared cell by cell, the others named.
std::vector<FileDifference> matrix_file_differences(const SavedRun& a, const SavedRun& b) {
  const std::vector<std::string> in_a = matrix_files(a), in_b = matrix_files(b);
  std::set<std::string> names(in_a.begin(), in_a.end());
  names.insert(in_b.begin(), in_b.end());
  std::vector<std::future<FileDifference>> each;
  for (const std::string& name : names)
    each.push_back(std::async(std::launch::async, [&a, &b, name, &in_a, &in_b]() -> FileDifference {
      const bool has_a = std::binary_search(in_a.begin(), in_a.end(), name);
      const bool has_b = std::binary_search(in_b.begin(), in_b.end(), name);
      if (!has_a || !has_b) return {name, std::nullopt, has_a ? "only in A" : "only in B"};
      std::optional<PairedDifference> d = compare_matrices(read_run_matrix(a, name), read_run_matrix(b, name));
      return {name, std::move(d), d ? "" : "the two matrices have different units"};
    }));
  std::vector<FileDifference> files;
  for (auto& f : each) files.push_back(f.get());
  return files;
}

std::string case_words(const SyncCaseResult& c) {
  std::string words = fmt::format("{} k={} {} {}", c.label.set, c.label.k, c.what, c.label.counter_home);
  if (!c.label.counter_gpu.empty()) words += " " + c.label.counter_gpu;
  return words;
}

// A barrier's or contention's every case, matched by its label.
FileDifference case_file_difference(const SavedRun& a, const SavedRun& b) {
  const std::string name = a.sync->csv_name();
  const std::vector<SyncCaseResult> ca = read_run_cases(a), cb = read_run_cases(b);
  std::map<std::string, double> of_b;
  for (const SyncCaseResult& c : cb) of_b[case_words(c)] = c.measured() ? c.headline_ns() : kNaN;
  std::vector<LabelledPair> pairs;
  for (const SyncCaseResult& c : ca)
    if (const auto in_b = of_b.find(case_words(c)); in_b != of_b.end())
      pairs.push_back({case_words(c), c.measured() ? c.headline_ns() : kNaN, in_b->second});
  return {name, paired_difference(pairs), ""};
}

// The path as the file system resolves it, without a trailing separator.
fs::path resolved(const fs::path& p) {
  std::error_code ec;
  fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec).lexically_normal();
  while (r.has_relative_path() && r.filename().empty()) r = r.parent_path();
  return r;
}

// `dir` is `run` or inside it.
bool inside(const fs::path& dir, const fs::path& run) {
  const fs::path d = resolved(dir), r = resolved(run);
  const auto [end, _] = std::mismatch(r.begin(), r.end(), d.begin(), d.end());
  return end == r.end();
}

}  // namespace

RunComparison compare_saved_runs(const SavedRun& a, const SavedRun& b, double threshold) {
  RunComparison c;
  c.a_name = a.shown;
  c.b_name = b.shown;
  c.a = a.header();
  c.b = b.header();
  c.kind = a.kind();
  c.threshold = threshold;
  if (a.kind() != b.kind())
    throw UsageError(fmt::format("compare: {} is a {} run and {} a {} run; compare runs of one command", a.shown,
                                 a.kind(), b.shown, b.kind()));
  c.chip = match_chips(c.a, a.host_cores(), c.b, b.host_cores());
  if (!c.chip.comparable) throw UsageError(fmt::format("compare: {} and {}: {}", a.shown, b.shown, c.chip.why));
  if (a.map) {
    c.settings = setting_differences(*a.map, *b.map);
    c.tables = structure_differences(*a.map, *b.map);
  } else {
    c.settings = setting_differences(*a.sync, *b.sync);
    c.tables = case_differences(*a.sync, *b.sync);
  }
  c.sides = sides_difference(c.a, a.topology, c.b, b.topology, c.chip.same);
  if (c.chip.same) c.files = a.map ? matrix_file_differences(a, b) : std::vector{case_file_difference(a, b)};
  else c.cells_refused = c.chip.why;
  judge(c);
  return c;
}

void write_comparison_set(const RunComparison& c, const SavedRun& a, const SavedRun& b, const fs::path& dir) {
  for (const SavedRun* run : {&a, &b})
    if (inside(dir, run->dir))
      throw UsageError(fmt::format("compare: -o {} is inside {}; compare writes nothing into the runs it compares",
                                   printable_excerpt(dir.string(), 160), run->shown));
  // Every picture is made before the set is opened: a failure leaves nothing.
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back("compare.md", comparison_markdown(c));
  files.emplace_back("compare.json", comparison_json(c).dump(2) + "\n");
  for (const FileDifference& f : c.files) {
    if (!f.difference || !f.name.ends_with(".csv") || !f.name.starts_with("matrix-")) continue;
    const ValueMatrix ma = read_run_matrix(a, f.name);
    ValueMatrix diff = difference_matrix(ma, read_run_matrix(b, f.name));
    DisplaySpec display;
    try {
      display = read_order(a.dir, diff.units, f.name);
    } catch (const UsageError&) {
      display = {};  // drawn in A's file order
    }
    if (!display.order.empty()) diff = diff.reordered(display.order);
    double largest = 0.0;
    for (double v : diff.values)
      if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
    HeatmapStyle style;
    style.title = fmt::format("B - A: {} (A {}, B {})", f.name, a.shown, b.shown);
    style.value_label = "B - A one-way (ns)";
    style.scale = std::pair{-std::max(largest, 0.5), std::max(largest, 0.5)};
    style.groups = display.groups;
    std::tie(style.row_title, style.column_title) =
        map_axis_titles(display.unit_name, display.ordered, display.order_words);
    const std::string stem = f.name.substr(0, f.name.size() - 4);
    files.emplace_back("diff-" + stem + ".png", encode_png(render_heatmap({{"", std::move(diff)}}, style)));
  }
  nlohmann::json meta = {{"tool", "cumap"},
                         {"command", "compare"},
                         {"a", a.shown},
                         {"b", b.shown},
                         {"alike", c.alike()},
                         {"threshold", c.threshold}};
  OutputSet out(dir);
  for (const auto& [name, content] : files) out.write(name, content);
  out.write("meta.json", meta.dump(2) + "\n");
  out.publish();
}

}  // namespace cumap
