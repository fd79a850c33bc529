// Two runs compared (run_comparison.hpp).
#include "core/run_comparison.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/stats.hpp"
#include "core/units.hpp"

namespace cumap {
namespace {

double rel_diff(double a, double b) { return std::fabs(b - a) / std::fabs(a); }

std::string words(const std::vector<std::string>& list) {
  return list.empty() ? "none" : fmt::format("{}", fmt::join(list, ", "));
}

std::string number_words(double v) { return std::isfinite(v) ? fmt::format("{:g}", v) : "not recorded"; }

void add_if_different(std::vector<SettingDifference>& out, std::string name, std::string a, std::string b) {
  if (a != b) out.push_back({std::move(name), std::move(a), std::move(b)});
}

// The settings both kinds of run record in their header, which every
// comparison of settings starts with.
std::vector<SettingDifference> header_differences(const RunHeader& a, const RunHeader& b) {
  std::vector<SettingDifference> out;
  add_if_different(out, "backend", a.backend, b.backend);
  add_if_different(out, "device", a.device_name, b.device_name);
  add_if_different(out, "serial", words(a.serials), words(b.serials));
  add_if_different(out, "host", a.host, b.host);
  add_if_different(out, "driver", a.driver_version, b.driver_version);
  add_if_different(out, "runtime", a.runtime_version, b.runtime_version);
  add_if_different(out, "cumap version", a.tool_version, b.tool_version);
  const bool across = a.across_devices() || b.across_devices();
  const auto units = [&](const RunHeader& h) {
    std::vector<std::string> ids;
    for (int u : h.units) ids.push_back(format_unit_id(u, across));
    return fmt::format("{} ({})", h.units.size(), across ? words(ids) : format_unit_list(h.units));
  };
  add_if_different(out, "units", units(a), units(b));
  add_if_different(out, "home classes", std::to_string(a.class_count), std::to_string(b.class_count));
  return out;
}

// A count a run records of how it measured, by the name a comparison gives it.
template <typename Summary>
using NamedCount = std::pair<const char*, int Summary::*>;

template <typename Summary, std::size_t N>
void add_counts_if_different(std::vector<SettingDifference>& out, const Summary& a, const Summary& b,
                             const NamedCount<Summary> (&counts)[N]) {
  for (const auto& [name, count] : counts)
    add_if_different(out, name, std::to_string(a.*count), std::to_string(b.*count));
}

// A map's counts, in the order a comparison lists them.
constexpr NamedCount<RunSummary> kMapCounts[] = {
    {"round trips per sample", &RunSummary::iters},
    {"samples per pair", &RunSummary::samples},
    {"flag lines per home class", &RunSummary::lines_per_class},
    {"lines per class across GPUs", &RunSummary::cross_lines},
    {"samples per line across GPUs", &RunSummary::cross_samples},
    {"untimed round trips per line across GPUs", &RunSummary::cross_warmup},
};

// A barrier's or contention run's counts whose names do not depend on its kind.
constexpr NamedCount<SyncSummary> kSyncCounts[] = {
    {"warm-up", &SyncSummary::warmup},
    {"launches per case", &SyncSummary::launches},
};

std::vector<std::string> map_names(const RunSummary& s) {
  std::vector<std::string> names;
  for (const RunSummary::Map& m : s.maps) names.push_back(s.map_name(m));
  return names;
}

// Rows of both runs by key: A's in its order, then those only B has.
class RowMatcher {
 public:
  void add_a(std::vector<std::string> key, double v) { row(std::move(key)).a = v; }
  void add_b(std::vector<std::string> key, double v) { row(std::move(key)).b = v; }
  std::vector<TableDifference::Row> rows() && { return std::move(rows_); }

 private:
  TableDifference::Row& row(std::vector<std::string> key) {
    const auto [at, added] = index_.emplace(key, rows_.size());
    if (added) rows_.push_back({std::move(key), kNaN, kNaN});
    return rows_[at->second];
  }
  std::map<std::vector<std::string>, std::size_t> index_;
  std::vector<TableDifference::Row> rows_;
};

std::string class_words(const std::optional<int>& c) { return c ? std::to_string(*c) : "all (pooled)"; }

std::string gpus_words(int a, int b) { return a == b ? fmt::format("g{}", a) : fmt::format("g{}-g{}", a, b); }

// The side holding most of `units` in `header` (-1: none holds any).
int side_holding(const std::vector<int>& units, const RunHeader& header) {
  std::map<int, std::size_t> count;
  for (std::size_t s = 0; s < header.sides.size(); ++s)
    for (int u : header.sides[s].units)
      if (std::find(units.begin(), units.end(), u) != units.end()) ++count[static_cast<int>(s)];
  int best = -1;
  std::size_t most = 0;
  for (const auto& [side, n] : count)
    if (n > most) most = n, best = side;
  return best;
}

// A group's name without the side a display group puts before it ("S0 GPC3" -> "GPC3").
std::string group_name(const std::string& name) {
  if (name.size() > 3 && name[0] == 'S' && std::isdigit(static_cast<unsigned char>(name[1]))) {
    const std::size_t space = name.find(' ');
    if (space != std::string::npos) return name.substr(space + 1);
  }
  return name;
}

std::string percent(double share) { return fmt::format("{:+.1f} %", 100.0 * share); }

}  // namespace

PairedDifference paired_difference(const std::vector<LabelledPair>& pairs, std::size_t most_moved) {
  PairedDifference d;
  std::vector<double> x, y, rel;
  std::vector<PairedDifference::Moved> moved;
  for (const LabelledPair& p : pairs) {
    if (!std::isfinite(p.a) || !std::isfinite(p.b) || p.a == 0.0) continue;
    x.push_back(p.a);
    y.push_back(p.b);
    rel.push_back(rel_diff(p.a, p.b));
    // A value that did not move is not named among those that moved most.
    if (rel.back() > 0.0) moved.push_back({p.what, p.a, p.b, rel.back()});
  }
  d.count = x.size();
  if (x.empty()) return d;
  d.pearson_r = pearson(x, y);
  const Summary r = summarize(rel);
  d.median_rel_diff = r.median;
  d.p95_rel_diff = r.p95;
  // Stable: of equal moves, the first met (row by row) is named first.
  std::stable_sort(moved.begin(), moved.end(), [](const auto& l, const auto& r) { return l.rel_diff > r.rel_diff; });
  moved.resize(std::min(most_moved, moved.size()));
  d.most_moved = std::move(moved);
  return d;
}

ValueMatrix difference_matrix(const ValueMatrix& a, const ValueMatrix& b) {
  const ValueMatrix in_a_order = b.reordered(a.units);
  ValueMatrix d = a;
  for (std::size_t i = 0; i < d.values.size(); ++i) d.values[i] = in_a_order.values[i] - a.values[i];
  return d;
}

std::optional<PairedDifference> compare_matrices(const ValueMatrix& a, const ValueMatrix& b, std::size_t most_moved) {
  if (!std::is_permutation(a.units.begin(), a.units.end(), b.units.begin(), b.units.end())) return std::nullopt;
  const ValueMatrix in_a_order = b.reordered(a.units);
  const std::size_t n = a.size();
  const bool across = ids_span_devices(a.units);
  std::vector<LabelledPair> cells;
  cells.reserve(n * n);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) {
      if (r == c) continue;
      cells.push_back({format_unit_id(a.units[r], across) + "-" + format_unit_id(a.units[c], across), a.at(r, c),
                       in_a_order.at(r, c)});
    }
  PairedDifference d = paired_difference(cells, cells.size());
  // A mirrored map holds each pair twice: name it once among those that moved most.
  std::vector<PairedDifference::Moved> once;
  std::set<std::pair<std::string, std::string>> seen;
  for (const PairedDifference::Moved& m : d.most_moved) {
    if (once.size() == most_moved) break;
    const std::size_t dash = m.what.find('-');
    std::string first = m.what.substr(0, dash), second = m.what.substr(dash + 1);
    if (!seen.insert(std::minmax(first, second)).second) continue;
    once.push_back(m);
  }
  d.most_moved = std::move(once);
  return d;
}

ChipMatch match_chips(const RunHeader& a, bool a_host_cores, const RunHeader& b, bool b_host_cores) {
  ChipMatch m;
  if (a_host_cores != b_host_cores) {
    m.comparable = false;
    m.why = fmt::format("A measured {} ({} backend) and B {} ({} backend): a CPU's cores and a GPU's units do not "
                        "compare",
                        a_host_cores ? "CPU cores" : "a GPU", a.backend, b_host_cores ? "CPU cores" : "a GPU",
                        b.backend);
    return m;
  }
  if (a_host_cores) {
    m.same = a.host == b.host && a.device_name == b.device_name;
    if (!m.same)
      m.why = fmt::format("A ran on host {} ({}) and B on host {} ({}): core ids of one machine are not those of "
                          "another",
                          a.host, a.device_name, b.host, b.device_name);
    return m;
  }
  const std::string ids = fmt::format("the {0} ids of one chip are not the {0} ids of another (each chip puts other "
                                      "groups on each side)",
                                      a.unit_word());
  if (a.device_name != b.device_name) {
    m.why = fmt::format("A ran on {} and B on {}: {}", a.device_name, b.device_name, ids);
    return m;
  }
  const auto known = [](const RunHeader& h) {
    return !h.serials.empty() &&
           std::none_of(h.serials.begin(), h.serials.end(), [](const std::string& s) { return s.empty(); });
  };
  if (!known(a) || !known(b)) {
    m.why = fmt::format("{} records no GPU serial, so the two cannot be known to be one chip, and {}",
                        !known(a) ? "A" : "B", ids);
    return m;
  }
  std::vector<std::string> sa = a.serials, sb = b.serials;
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  m.same = sa == sb;
  if (!m.same)
    m.why = fmt::format("A is serial {} and B serial {}: {}", words(a.serials), words(b.serials), ids);
  return m;
}

std::vector<SettingDifference> setting_differences(const RunSummary& a, const RunSummary& b) {
  std::vector<SettingDifference> out = header_differences(a.run, b.run);
  add_if_different(out, "path (--via)", a.via, b.via);
  add_if_different(out, "probe", a.probe, b.probe);
  add_counts_if_different(out, a, b, kMapCounts);
  add_if_different(out, "timeout (ms)", number_words(a.timeout_ms), number_words(b.timeout_ms));
  add_if_different(out, "maps", words(map_names(a)), words(map_names(b)));
  add_if_different(out, "interrupted", a.interrupted ? "yes" : "no", b.interrupted ? "yes" : "no");
  return out;
}

std::vector<SettingDifference> setting_differences(const SyncSummary& a, const SyncSummary& b) {
  std::vector<SettingDifference> out = header_differences(a.run, b.run);
  add_if_different(out, "command", a.command, b.command);
  add_if_different(out, "probe", a.probe, b.probe);
  add_if_different(out, a.contention() ? "batches per participant" : "episodes per launch",
                   std::to_string(a.episodes), std::to_string(b.episodes));
  add_counts_if_different(out, a, b, kSyncCounts);
  if (a.contention() || b.contention())
    add_if_different(out, "operations per batch", std::to_string(a.ops_per_batch), std::to_string(b.ops_per_batch));
  add_if_different(out, "complete", a.complete ? "yes" : "no", b.complete ? "yes" : "no");
  return out;
}

std::vector<TableDifference> structure_differences(const RunSummary& a, const RunSummary& b) {
  std::vector<TableDifference> out;
  {
    RowMatcher rows;
    for (const RunSummary::Map& m : a.maps) rows.add_a({a.map_name(m), "every pair"}, m.median_ns.value_or(kNaN));
    for (const RunSummary::Map& m : b.maps) rows.add_b({b.map_name(m), "every pair"}, m.median_ns.value_or(kNaN));
    out.push_back({"Maps", {"map", "pairs"}, "median one-way ns", std::move(rows).rows()});
  }
  if (!a.structure.empty() || !b.structure.empty()) {
    RowMatcher rows;
    for (const RunSummary::Structure& s : a.structure)
      rows.add_a({s.placement, class_words(s.home_class), where_words(s, a.run.class_count)}, s.row.median_ns);
    for (const RunSummary::Structure& s : b.structure)
      rows.add_b({s.placement, class_words(s.home_class), where_words(s, b.run.class_count)}, s.row.median_ns);
    out.push_back({"Structure", {"placement", "home class", "pairs"}, "median one-way ns", std::move(rows).rows()});
  }
  if (a.across_gpus() || b.across_gpus()) {
    RowMatcher gpus, cross;
    const auto add = [&](const RunSummary& s, bool is_a) {
      for (const RunSummary::Map& m : s.maps) {
        for (const RunSummary::GpuPair& p : m.gpu_pairs) {
          std::vector<std::string> key{m.placement, gpus_words(p.row.gpu_a, p.row.gpu_b), p.row.flags_on};
          if (is_a) gpus.add_a(std::move(key), p.row.oneway_ns.median);
          else gpus.add_b(std::move(key), p.row.oneway_ns.median);
        }
        for (const CrossGpuStructureRow& r : m.cross_gpu_structure) {
          std::vector<std::string> key{m.placement,
                                       gpus_words(r.gpu_a, r.gpu_b),
                                       fmt::format("g{}", r.flags_on),
                                       std::to_string(r.home_class),
                                       std::to_string(r.side_a),
                                       std::to_string(r.side_b)};
          is_a ? cross.add_a(std::move(key), r.median_ns) : cross.add_b(std::move(key), r.median_ns);
        }
      }
    };
    add(a, true);
    add(b, false);
    out.push_back({"GPU x GPU", {"placement", "GPUs", "flags on"}, "median one-way ns", std::move(gpus).rows()});
    out.push_back({"Across GPUs by home class and side",
                   {"placement", "GPUs", "flags on", "home class", "side on a", "side on b"},
                   "median one-way ns",
                   std::move(cross).rows()});
  }
  return out;
}

std::vector<TableDifference> case_differences(const SyncSummary& a, const SyncSummary& b) {
  RowMatcher rows;
  const auto key = [](const SyncCaseResult& c) {
    return std::vector<std::string>{c.label.set, std::to_string(c.label.k), c.what, c.label.counter_home,
                                    c.label.counter_gpu};
  };
  const auto value = [](const SyncCaseResult& c) { return c.measured() ? c.headline_ns() : kNaN; };
  for (const SyncCaseResult& c : a.at_every_unit) rows.add_a(key(c), value(c));
  for (const SyncCaseResult& c : b.at_every_unit) rows.add_b(key(c), value(c));
  const bool contention = a.contention();
  return {{"At k = every unit of each set",
           {"set", "k", contention ? "operation" : "implementation", "counter home", "counter GPU"},
           contention ? "median ns per operation" : "ns per barrier",
           std::move(rows).rows()}};
}

SidesDifference sides_difference(const RunHeader& a, const Topology& a_groups, const RunHeader& b,
                                 const Topology& b_groups, bool same_chip) {
  SidesDifference d;
  for (std::size_t s = 0; s < std::max(a.sides.size(), b.sides.size()); ++s) {
    SidesDifference::Side side;
    side.name = s < a.sides.size() ? a.sides[s].name : b.sides[s].name;
    if (s < a.sides.size()) side.units_a = a.sides[s].units.size();
    if (s < b.sides.size()) side.units_b = b.sides[s].units.size();
    d.sides.push_back(std::move(side));
  }
  std::map<std::string, std::size_t> index;
  const auto group = [&](const std::string& name) -> SidesDifference::Group& {
    const auto [at, added] = index.emplace(group_name(name), d.groups.size());
    if (added) d.groups.push_back({group_name(name)});
    return d.groups[at->second];
  };
  for (const UnitGroup& g : a_groups.groups) {
    SidesDifference::Group& row = group(g.name);
    row.units_a += g.units.size();
    row.side_a = side_holding(g.units, a);
  }
  for (const UnitGroup& g : b_groups.groups) {
    SidesDifference::Group& row = group(g.name);
    row.units_b += g.units.size();
    row.side_b = side_holding(g.units, b);
  }
  if (same_chip) {
    std::map<int, int> side_in_b;
    for (std::size_t s = 0; s < b.sides.size(); ++s)
      for (int u : b.sides[s].units) side_in_b[u] = static_cast<int>(s);
    for (std::size_t s = 0; s < a.sides.size(); ++s)
      for (int u : a.sides[s].units)
        if (const auto in_b = side_in_b.find(u); in_b != side_in_b.end() && in_b->second != static_cast<int>(s))
          d.moved_units.push_back(u);
    std::sort(d.moved_units.begin(), d.moved_units.end());
  }
  return d;
}

void judge(RunComparison& c) {
  c.beyond_threshold.clear();
  const auto named = [](const std::string& title, const std::vector<std::string>& key) {
    std::vector<std::string> parts;
    for (const std::string& k : key)
      if (!k.empty()) parts.push_back(k);
    return fmt::format("{} {}", title, fmt::join(parts, " / "));
  };
  for (const TableDifference& t : c.tables)
    for (const TableDifference::Row& row : t.rows) {
      const bool in_a = std::isfinite(row.a), in_b = std::isfinite(row.b);
      if (!in_a && !in_b) continue;
      if (in_a != in_b) {
        c.beyond_threshold.push_back(fmt::format("{}: only in {}", named(t.title, row.key), in_a ? "A" : "B"));
      } else if (rel_diff(row.a, row.b) > c.threshold) {
        c.beyond_threshold.push_back(fmt::format("{}: {:.1f} -> {:.1f} ({})", named(t.title, row.key), row.a, row.b,
                                                 percent((row.b - row.a) / row.a)));
      }
    }
  for (const FileDifference& f : c.files) {
    if (!f.difference) {
      c.beyond_threshold.push_back(fmt::format("{}: {}", f.name, f.why_not));
    } else if (f.difference->count == 0) {
      c.beyond_threshold.push_back(fmt::format("{}: no cell has a value in both", f.name));
    } else if (f.difference->median_rel_diff > c.threshold) {
      c.beyond_threshold.push_back(
          fmt::format("{}: median cell difference {:.2f} %", f.name, 100.0 * f.difference->median_rel_diff));
    }
  }
  if (!c.sides.moved_units.empty())
    c.beyond_threshold.push_back(fmt::format("{} {}(s) on another side in B: {}", c.sides.moved_units.size(),
                                             c.a.unit_word(), format_unit_list(c.sides.moved_units)));
}

}  // namespace cumap
