// What a run says about units a user names (unit_query.hpp).
#include "core/unit_query.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/run_summary.hpp"
#include "core/stats.hpp"

namespace cumap {
namespace {

// The cell (a, b) of `m`; NaN where either unit is not in it.
double cell(const ValueMatrix& m, int a, int b) {
  const auto ia = std::find(m.units.begin(), m.units.end(), a);
  const auto ib = std::find(m.units.begin(), m.units.end(), b);
  if (ia == m.units.end() || ib == m.units.end()) return kNaN;
  return m.at(static_cast<std::size_t>(ia - m.units.begin()), static_cast<std::size_t>(ib - m.units.begin()));
}

// An unordered map holds (a, b) and (b, a) alike; an ordered one each
// direction: the pair's value is their mean where both are there.
double pair_value(const ValueMatrix& m, int a, int b) {
  const double ab = cell(m, a, b), ba = cell(m, b, a);
  if (std::isfinite(ab) && std::isfinite(ba)) return (ab + ba) / 2.0;
  return std::isfinite(ab) ? ab : ba;
}

int side_of(const UnitPlaces& places, int unit) {
  const auto s = places.side.find(unit);
  return s == places.side.end() ? -1 : s->second;
}

std::map<int, std::size_t> per_side(const std::vector<int>& units, const UnitPlaces& places) {
  std::map<int, std::size_t> count;
  for (int u : units) ++count[side_of(places, u)];
  return count;
}

// The cheapest class of each placement with two or more, by `value`.
template <typename Rows, typename Value>
std::vector<PairAnswer::Cheapest> cheapest_classes(const Rows& rows, Value value) {
  std::map<std::string, std::vector<std::pair<double, int>>> by_placement;
  std::vector<std::string> order;
  for (const auto& r : rows) {
    if (r.headline || !r.home_class || !std::isfinite(value(r))) continue;
    if (!by_placement.contains(r.placement)) order.push_back(r.placement);
    by_placement[r.placement].emplace_back(value(r), *r.home_class);
  }
  std::vector<PairAnswer::Cheapest> out;
  for (const std::string& p : order) {
    std::vector<std::pair<double, int>> classes = by_placement[p];
    if (classes.size() < 2) continue;
    std::sort(classes.begin(), classes.end());
    out.push_back({p, classes[0].second, classes[0].first, classes[1].second, classes[1].first});
  }
  return out;
}

// Over the pair's lines of one class: the median of the lines' one-way p05
// and p95 less their correction, the line spread as measured, the lines.
void add_lines(PairAnswer::Row& row, const std::vector<PairStats>& lines) {
  std::vector<double> p05, p95, medians;
  for (const PairStats& l : lines) {
    if (l.timed_out) continue;
    const bool in_class = row.home_class ? l.home_class == *row.home_class : true;
    if (!in_class) continue;
    p05.push_back(l.rtt_ns.p05 / 2.0 - l.line_correction_ns);
    p95.push_back(l.rtt_ns.p95 / 2.0 - l.line_correction_ns);
    medians.push_back(l.oneway_median_ns());
  }
  row.lines = medians.size();
  if (medians.empty()) return;
  row.p05_ns = summarize(p05).median;
  row.p95_ns = summarize(p95).median;
  const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
  row.line_spread_ns = *hi - *lo;
}

}  // namespace

std::string pair_where(int a, int b, int home_class, const UnitPlaces& places) {
  const int sa = side_of(places, a), sb = side_of(places, b);
  if (sa < 0 || sb < 0) return {};
  RunSummary::Structure s;
  s.home_class = home_class;
  s.row.relation = sa == sb ? "same-side" : "other-side";
  s.row.near_units = (sa == home_class) + (sb == home_class);
  return where_words(s, places.class_count);
}

PairAnswer query_pair(int a, int b, const std::vector<PlacementMaps>& maps, const UnitPlaces& places) {
  PairAnswer answer;
  answer.a = a;
  answer.b = b;
  for (const PlacementMaps& p : maps) {
    for (const PlacementMaps::ClassMap& c : p.classes) {
      PairAnswer::Row row;
      row.placement = p.placement;
      row.home_class = c.home_class;
      if (c.home_class) row.where = pair_where(a, b, *c.home_class, places);
      row.median_ns = pair_value(c.oneway_ns, a, b);
      add_lines(row, p.pair_lines);
      // One class: the map is also the headline, whose spread the run wrote.
      if (!p.headline_ns && p.line_spread_ns && row.lines == 0) row.line_spread_ns = pair_value(*p.line_spread_ns, a, b);
      answer.rows.push_back(std::move(row));
    }
    if (p.headline_ns) {
      PairAnswer::Row row;
      row.placement = p.placement;
      row.headline = true;
      row.median_ns = pair_value(*p.headline_ns, a, b);
      if (p.line_spread_ns) row.line_spread_ns = pair_value(*p.line_spread_ns, a, b);
      std::size_t lines = 0;
      for (const PairStats& l : p.pair_lines) lines += !l.timed_out;
      row.lines = lines;
      answer.rows.push_back(std::move(row));
    }
  }
  answer.cheapest = cheapest_classes(answer.rows, [](const PairAnswer::Row& r) { return r.median_ns; });
  return answer;
}

SetAnswer query_set(const std::vector<int>& units, const std::vector<PlacementMaps>& maps, const UnitPlaces& places) {
  SetAnswer answer;
  answer.units = units;
  answer.units_per_side = per_side(units, places);
  const auto flag_of = [&](const std::string& placement, const std::optional<int>& home_class, bool headline,
                           const ValueMatrix& m) {
    SetAnswer::Flag f;
    f.placement = placement;
    f.home_class = home_class;
    f.headline = headline;
    if (home_class)
      for (int u : units) f.near_units += side_of(places, u) == *home_class;
    std::vector<double> values;
    for (std::size_t i = 0; i < units.size(); ++i)
      for (std::size_t j = i + 1; j < units.size(); ++j)
        if (const double v = pair_value(m, units[i], units[j]); std::isfinite(v)) values.push_back(v);
    f.pairs = values.size();
    if (!values.empty()) {
      f.mean_ns = mean(values);
      const Summary s = summarize(values);
      f.median_ns = s.median;
      f.max_ns = s.max;
    }
    answer.flag.push_back(f);
  };
  for (const PlacementMaps& p : maps) {
    for (const PlacementMaps::ClassMap& c : p.classes) flag_of(p.placement, c.home_class, false, c.oneway_ns);
    if (p.headline_ns) flag_of(p.placement, std::nullopt, true, *p.headline_ns);
  }
  answer.cheapest = cheapest_classes(answer.flag, [](const SetAnswer::Flag& f) { return f.mean_ns; });
  return answer;
}

void add_cases(SetAnswer& answer, const std::string& command, const std::vector<SyncCaseResult>& cases,
               const UnitPlaces& sweep_places, bool same_chip) {
  const int k = static_cast<int>(answer.units.size());
  const std::set<int> mine(answer.units.begin(), answer.units.end());
  std::set<int> ks(answer.case_ks.begin(), answer.case_ks.end());
  for (const SyncCaseResult& c : cases) {
    ks.insert(c.label.k);
    if (c.label.k != k) continue;
    SetAnswer::MeasuredCase m;
    m.command = command;
    m.result = c;
    m.units_per_side = per_side(c.participants, sweep_places);
    m.these_units = same_chip && std::set<int>(c.participants.begin(), c.participants.end()) == mine;
    // A case whose CSV does not list its participants says nothing of its sides.
    m.like_these = !c.participants.empty() && m.units_per_side == answer.units_per_side;
    answer.cases.push_back(std::move(m));
  }
  answer.case_ks.assign(ks.begin(), ks.end());
}

}  // namespace cumap
