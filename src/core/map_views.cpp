// A map run seen from further out (map_views.hpp).
#include "core/map_views.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "core/stats.hpp"

namespace cumap {
namespace {

std::optional<double> finite(double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; }

// Whether every cell equals its mirror: an unordered map, whose pairs are
// each counted once.
bool mirrored(const ValueMatrix& m) {
  for (std::size_t r = 0; r < m.size(); ++r)
    for (std::size_t c = r + 1; c < m.size(); ++c) {
      const double x = m.at(r, c), y = m.at(c, r);
      if (std::isfinite(x) != std::isfinite(y) || (std::isfinite(x) && x != y)) return false;
    }
  return true;
}

// Each unit's position in `m`.
std::unordered_map<int, std::size_t> positions(const ValueMatrix& m) {
  std::unordered_map<int, std::size_t> at;
  for (std::size_t i = 0; i < m.units.size(); ++i) at.emplace(m.units[i], i);
  return at;
}

std::unordered_map<int, std::string> group_names(const Topology& groups) {
  std::unordered_map<int, std::string> name;
  for (const UnitGroup& g : groups.groups)
    for (int u : g.units) name.emplace(u, g.name);
  return name;
}

RunSummary::Extremes extremes_of(const PlacementMatrices& p, const std::unordered_map<int, std::string>& group) {
  RunSummary::Extremes e;
  e.placement = p.placement;
  const ValueMatrix& m = p.headline_ns;
  const bool once = mirrored(m);
  struct Cell {
    std::size_t r, c;
    double v;
  };
  std::vector<Cell> cells;
  for (std::size_t r = 0; r < m.size(); ++r)
    for (std::size_t c = once ? r + 1 : 0; c < m.size(); ++c)
      if (r != c && std::isfinite(m.at(r, c))) cells.push_back({r, c, m.at(r, c)});
  // Ties in the order met, row by row: the same files give the same lists.
  std::stable_sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) { return a.v > b.v; });
  std::vector<std::unordered_map<int, std::size_t>> class_at;
  for (const auto& [home_class, map] : p.per_class_ns) {
    e.classes.push_back(home_class);
    class_at.push_back(positions(map));
  }
  const auto pair_value = [&](const Cell& cell) {
    RunSummary::PairValue v;
    v.a = m.units[cell.r];
    v.b = m.units[cell.c];
    v.ns = cell.v;
    for (std::size_t k = 0; k < p.per_class_ns.size(); ++k) {
      const ValueMatrix& cm = p.per_class_ns[k].second;
      const auto ia = class_at[k].find(v.a), ib = class_at[k].find(v.b);
      v.per_class_ns.push_back(ia == class_at[k].end() || ib == class_at[k].end()
                                   ? std::nullopt
                                   : finite(cm.at(ia->second, ib->second)));
    }
    if (const auto g = group.find(v.a); g != group.end()) v.group_a = g->second;
    if (const auto g = group.find(v.b); g != group.end()) v.group_b = g->second;
    return v;
  };
  const std::size_t n = std::min(kExtremePairs, cells.size());
  for (std::size_t i = 0; i < n; ++i) e.slowest.push_back(pair_value(cells[i]));
  for (std::size_t i = 0; i < n; ++i) e.fastest.push_back(pair_value(cells[cells.size() - 1 - i]));
  return e;
}

// The mean over classes of each unit's fitted term.
RunSummary::UnitTerms terms_of(const PlacementMatrices& p) {
  RunSummary::UnitTerms t;
  t.placement = p.placement;
  std::map<int, std::pair<double, int>> sum;  // unit -> sum, classes
  std::vector<int> order;
  for (const AdditiveFit& fit : p.fits)
    for (std::size_t i = 0; i < fit.units.size() && i < fit.unit_term.size(); ++i) {
      if (!std::isfinite(fit.unit_term[i])) continue;
      auto& [total, count] = sum[fit.units[i]];
      if (count == 0) order.push_back(fit.units[i]);
      total += fit.unit_term[i];
      ++count;
    }
  // In the map's order, each unit that had a term in every class.
  for (int u : p.headline_ns.units)
    if (const auto s = sum.find(u); s != sum.end() && s->second.second == static_cast<int>(p.fits.size())) {
      t.units.push_back(u);
      t.term_ns.push_back(s->second.first / s->second.second);
    }
  return t;
}

void add_standing_out(RunSummary& s, const PlacementMatrices& p, const std::unordered_map<int, std::string>& group) {
  const RunSummary::UnitTerms& t = s.unit_terms;
  if (t.term_ns.size() < 3) return;
  const Summary terms = summarize(t.term_ns);
  std::vector<double> deviation;
  for (double v : t.term_ns) deviation.push_back(std::fabs(v - terms.median));
  const double robust_sd = 1.4826 * summarize(deviation).median;
  const double typical = summarize(p.headline_ns.values).median;  // NaN cells are ignored
  s.stand_out_ns = std::max(kStandOutDeviations * robust_sd, std::isfinite(typical) ? kStandOutShare * typical : 0.0);
  for (std::size_t i = 0; i < t.units.size(); ++i)
    if (deviation[i] > s.stand_out_ns) {
      const auto g = group.find(t.units[i]);
      s.standing_out.push_back(
          {t.units[i], g == group.end() ? std::string() : g->second, t.term_ns[i], t.term_ns[i] - terms.median});
    }
  std::stable_sort(s.standing_out.begin(), s.standing_out.end(), [](const auto& a, const auto& b) {
    return std::fabs(a.from_median_ns) > std::fabs(b.from_median_ns);
  });
  if (s.standing_out.size() > kStandOutMost) s.standing_out.resize(kStandOutMost);
}

RunSummary::BlockMeans block_means(const std::string& placement, std::optional<int> home_class, const std::string& by,
                                   const std::vector<UnitGroup>& blocks, const ValueMatrix& m) {
  RunSummary::BlockMeans b;
  b.placement = placement;
  b.home_class = home_class;
  b.by = by;
  const std::size_t n = blocks.size();
  std::unordered_map<int, std::size_t> block_of;
  for (std::size_t i = 0; i < n; ++i) {
    b.blocks.push_back(blocks[i].name);
    for (int u : blocks[i].units) block_of.emplace(u, i);
  }
  std::vector<double> sum(n * n, 0.0);
  b.cells.assign(n * n, 0);
  for (std::size_t r = 0; r < m.size(); ++r) {
    const auto br = block_of.find(m.units[r]);
    if (br == block_of.end()) continue;
    for (std::size_t c = 0; c < m.size(); ++c) {
      const auto bc = block_of.find(m.units[c]);
      if (r == c || bc == block_of.end() || !std::isfinite(m.at(r, c))) continue;
      sum[br->second * n + bc->second] += m.at(r, c);
      ++b.cells[br->second * n + bc->second];
    }
  }
  for (std::size_t i = 0; i < n * n; ++i)
    b.mean_ns.push_back(b.cells[i] ? std::optional<double>(sum[i] / static_cast<double>(b.cells[i])) : std::nullopt);
  return b;
}

}  // namespace

void add_map_views(RunSummary& s, const std::vector<PlacementMatrices>& maps, const Topology& groups) {
  s.extremes.clear();
  s.unit_terms = {};
  s.standing_out.clear();
  s.stand_out_ns = 0.0;
  s.blocks.clear();
  s.has_views = true;
  const std::unordered_map<int, std::string> group = group_names(groups);
  for (const PlacementMatrices& p : maps) s.extremes.push_back(extremes_of(p, group));
  if (!maps.empty() && !maps.front().fits.empty()) {
    s.unit_terms = terms_of(maps.front());
    add_standing_out(s, maps.front(), group);
  }
  // Blocks of at least two: one block's mean is the map's.
  const auto add_blocks = [&](const std::string& by, const std::vector<UnitGroup>& blocks) {
    if (blocks.size() < 2) return;
    for (const PlacementMatrices& p : maps) {
      for (const auto& [home_class, map] : p.per_class_ns)
        s.blocks.push_back(block_means(p.placement, home_class, by, blocks, map));
      s.blocks.push_back(block_means(p.placement, std::nullopt, by, blocks, p.headline_ns));
    }
  };
  add_blocks("side", s.run.sides);
  add_blocks("group", groups.groups);
}

}  // namespace cumap
