// The views of a map in summary.md and block-means.csv (summary_views.hpp).
#include "report/summary_views.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/map_views.hpp"
#include "core/units.hpp"
#include "report/summary_text.hpp"

namespace cumap {
namespace {

using summary_text::cell;
using summary_text::csv_field;
using summary_text::csv_number;
using summary_text::value;

std::string class_words(const std::optional<int>& c) { return c ? std::to_string(*c) : "every class"; }

// "361.5 (350.0 / 373.0)": the headline, then each class's.
std::string pair_values(const RunSummary::PairValue& p) {
  std::string s = value(p.ns);
  if (p.per_class_ns.empty()) return s;
  std::vector<std::string> each;
  for (const std::optional<double>& v : p.per_class_ns) each.push_back(value(v));
  return fmt::format("{} ({})", s, fmt::join(each, " / "));
}

std::string pair_groups(const RunSummary::PairValue& p) {
  if (p.group_a.empty() && p.group_b.empty()) return "–";
  return p.group_a == p.group_b ? p.group_a : p.group_a + " – " + p.group_b;
}

bool symmetric(const RunSummary::BlockMeans& b) {
  const std::size_t n = b.blocks.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      // A mirrored map's two means differ only by the order of their sums.
      const std::optional<double>& x = b.mean_ns[i * n + j];
      const std::optional<double>& y = b.mean_ns[j * n + i];
      if (x.has_value() != y.has_value()) return false;
      if (x && std::fabs(*x - *y) > 1e-9 * std::max(std::fabs(*x), 1.0)) return false;
    }
  return true;
}

std::string extremes_markdown(const RunSummary& s) {
  bool any = false;
  for (const RunSummary::Extremes& e : s.extremes) any |= !e.slowest.empty();
  if (!any) return {};
  const bool across = s.run.across_devices();
  const auto name = [&](const RunSummary::PairValue& p) {
    return format_unit_id(p.a, across) + "–" + format_unit_id(p.b, across);
  };
  std::string md = "## Slowest and fastest pairs\n\n";
  md += "One-way latency in ns of each map's slowest and fastest pairs, every home class together";
  if (!s.extremes.empty() && !s.extremes.front().classes.empty()) {
    std::vector<std::string> classes;
    for (int c : s.extremes.front().classes) classes.push_back(fmt::format("class {}", c));
    md += fmt::format(" (in parentheses each class's, {})", fmt::join(classes, " / "));
  }
  md += "; groups as the heatmaps draw them.\n\n";
  for (const RunSummary::Extremes& e : s.extremes) {
    if (e.slowest.empty()) continue;
    md += fmt::format("| {} | slowest pair | groups | one-way | fastest pair | groups | one-way |\n",
                      cell(e.placement));
    md += "| ---: | --- | --- | ---: | --- | --- | ---: |\n";
    for (std::size_t i = 0; i < e.slowest.size(); ++i) {
      const RunSummary::PairValue& slow = e.slowest[i];
      const RunSummary::PairValue& fast = e.fastest[i];
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", i + 1, name(slow), cell(pair_groups(slow)),
                        pair_values(slow), name(fast), cell(pair_groups(fast)), pair_values(fast));
    }
    md += "\n";
  }
  return md;
}

std::string standing_out_markdown(const RunSummary& s) {
  if (s.unit_terms.units.empty()) return {};
  const std::string unit = s.run.unit_word();
  const bool across = s.run.across_devices();
  std::string md = fmt::format("## {}s that stand out\n\n", unit);
  md += fmt::format(
      "Each {0}'s own term *u* in the additive fit one-way(*a*, *b*) = *u*(*a*) + *u*(*b*) + *c* of the {1} "
      "per-class maps, averaged over the classes (`units.csv`'s `fit_term_ns`; the terms sum to 0). {0}s "
      "stand out when their term is more than {2:.1f} ns from the median term ({3:g} robust standard deviations, "
      "and at least {4:g} % of the map's median).\n\n",
      unit, s.unit_terms.placement, s.stand_out_ns, kStandOutDeviations, 100.0 * kStandOutShare);
  if (s.standing_out.empty()) return md + fmt::format("None: every {}'s term is within {:.1f} ns of the median.\n\n",
                                                      unit, s.stand_out_ns);
  md += fmt::format("| {} | group | term (ns) | from the median (ns) |\n| --- | --- | ---: | ---: |\n", unit);
  for (const RunSummary::StandingOut& u : s.standing_out)
    md += fmt::format("| {} | {} | {:+.1f} | {:+.1f} |\n", format_unit_id(u.unit, across),
                      cell(u.group.empty() ? "–" : u.group), u.term_ns, u.from_median_ns);
  return md + "\n";
}

std::string sides_markdown(const RunSummary& s) {
  std::vector<const RunSummary::BlockMeans*> sides;
  bool groups = false;
  for (const RunSummary::BlockMeans& b : s.blocks) {
    if (b.by == "side") sides.push_back(&b);
    groups |= b.by == "group";
  }
  if (sides.empty() && !groups) return {};
  std::string md = "## Zoomed out\n\n";
  if (!sides.empty()) {
    const RunSummary::BlockMeans& first = *sides.front();
    const std::size_t n = first.blocks.size();
    const bool triangle = std::all_of(sides.begin(), sides.end(), [](const auto* b) { return symmetric(*b); });
    md += fmt::format("Mean one-way latency in ns between the {}s of two sides, by the class of the flag's line "
                      "(side *s* is near class *s*)",
                      s.run.unit_word());
    md += groups ? "; group × group in `block-means.csv` and `report.html`.\n\n" : ".\n\n";
    std::string header = "| placement | home class |", rule = "| --- | --- |";
    std::vector<std::pair<std::size_t, std::size_t>> cells;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = triangle ? i : 0; j < n; ++j) {
        cells.emplace_back(i, j);
        header += fmt::format(" {} – {} |", cell(first.blocks[i]), cell(first.blocks[j]));
        rule += " ---: |";
      }
    md += header + "\n" + rule + "\n";
    for (const RunSummary::BlockMeans* b : sides) {
      if (b->blocks != first.blocks) continue;
      md += fmt::format("| {} | {} |", cell(b->placement), class_words(b->home_class));
      for (const auto& [i, j] : cells) md += fmt::format(" {} |", value(b->mean_ns[i * n + j]));
      md += "\n";
    }
    md += "\n";
  } else {
    md += "Mean one-way latency in ns between the groups the heatmaps draw: `block-means.csv` and `report.html`.\n\n";
  }
  return md;
}

}  // namespace

std::string views_markdown(const RunSummary& s) {
  if (!s.has_views) return {};
  return extremes_markdown(s) + standing_out_markdown(s) + sides_markdown(s);
}

std::string block_means_csv(const RunSummary& s) {
  std::string out = "placement,home_class,by,row,column,mean_ns,cells\n";
  for (const RunSummary::BlockMeans& b : s.blocks) {
    const std::size_t n = b.blocks.size();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        out += fmt::format("{},{},{},{},{},{},{}\n", csv_field(b.placement),
                           b.home_class ? std::to_string(*b.home_class) : "all", b.by, csv_field(b.blocks[i]),
                           csv_field(b.blocks[j]), csv_number(b.mean_ns[i * n + j]), b.cells[i * n + j]);
  }
  return out;
}

}  // namespace cumap
