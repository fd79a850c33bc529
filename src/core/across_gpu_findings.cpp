// The sentences about signals between GPUs (run_summary.hpp,
// across_gpu_findings): what one costs against one inside a GPU, which
// factors change it (the GPU holding the flag, the line's home class, the
// side of the unit beside the flag and of the one across the link) and the
// cheapest and dearest of their combinations.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/run_summary.hpp"

namespace cumap {
namespace {

std::string ns(double v) { return fmt::format("{:.0f} ns", v); }
std::string percent(double share) {
  return std::abs(share) >= 0.1 ? fmt::format("{:.0f} %", 100 * share) : fmt::format("{:.1f} %", 100 * share);
}
// The share above which an effect is named ("1 %").
std::string threshold_words() { return fmt::format("{:g} %", 100 * kAcrossGpusEffectShare); }
std::string gpus_words(int a, int b) { return a == b ? fmt::format("g{}", a) : fmt::format("g{} – g{}", a, b); }

std::string join(const std::vector<std::string>& parts, const std::string& last = " and ") {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i == 0 ? "" : i + 1 == parts.size() ? last : ", ") + parts[i];
  return out;
}

// A row of the structure as its flag sees it: the line's class, the unit
// beside the flag (on the GPU holding it) and the one reaching across.
struct FlagView {
  int flag_gpu = 0;
  int home_class = 0;
  int local_side = 0;
  int remote_side = 0;
  double median = 0;
};

// Something a pair's cost may follow, as a level of each row, with the
// words for its levels: in a comparison ("class-1 lines"), in a
// combination (" in a class-1 line") and as advice ("put it in a class-1
// line of the GPU that holds it").
struct Factor {
  std::string name;
  std::function<int(const FlagView&)> level;
  std::function<std::string(int)> words;
  std::function<std::string(int)> part;
  std::function<std::string(int)> advice;
};

// A factor's main effect: the mean of the rows' medians by level, each
// combination of the other factors weighing the same (every row is one).
struct Effect {
  const Factor* factor = nullptr;
  bool applies = false;  // the rows have two levels or more
  double size = 0;       // ns, the dearest level's mean less the cheapest's
  int cheap = 0;
  int dear = 0;
};

Effect effect_of(const Factor& f, const std::vector<FlagView>& rows) {
  std::map<int, std::pair<double, int>> by_level;
  for (const FlagView& r : rows) {
    auto& [sum, n] = by_level[f.level(r)];
    sum += r.median;
    ++n;
  }
  Effect e{&f};
  if (by_level.size() < 2) return e;
  e.applies = true;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& [level, sum_n] : by_level) {
    const double mean = sum_n.first / sum_n.second;
    if (mean < lo) lo = mean, e.cheap = level;
    if (mean > hi) hi = mean, e.dear = level;
  }
  e.size = hi - lo;
  return e;
}

// The factors of a unit's role (beside the flag, or across the link): its
// side, or whether its side is the one of the line's home class. On one
// chip the second decides (the near side wins); across GPUs the unit
// reaching over the link may follow its own side instead. Whichever
// explains more is the role's factor.
struct Role {
  Factor by_side;
  Factor by_home;
};

struct Factors {
  Factor home_class;
  Role local;
  Role remote;
  Factor flag_gpu;
};

// A role's factor by its unit's side, `side` of a row: its levels are
// named alike in each role ("side-1 SMs"); `part` and `advice` put that name
// where their {} stands.
Factor side_factor(std::string name, int FlagView::*side, const std::string& unit, std::string part,
                   std::string advice) {
  const auto units = [unit](int s) { return fmt::format("side-{} {}s", s, unit); };
  return {std::move(name), [side](const FlagView& r) { return r.*side; }, units,
          [units, part](int s) { return fmt::format(fmt::runtime(part), units(s)); },
          [units, advice](int s) { return fmt::format(fmt::runtime(advice), units(s)); }};
}

Factors factors(const std::string& unit) {
  Factors f;
  f.home_class = {"the home class of the flag's line", [](const FlagView& r) { return r.home_class; },
                  [](int c) { return fmt::format("class-{} lines", c); },
                  [](int c) { return fmt::format(" in a class-{} line", c); },
                  [](int c) { return fmt::format("put it in a class-{} line of the GPU that holds it", c); }};
  f.local.by_side = side_factor(fmt::format("the side of the {} beside the flag", unit), &FlagView::local_side, unit,
                                ", polled on its GPU by {}", "let {} poll it on its GPU");
  f.local.by_home = {
      fmt::format("whether the {} beside the flag is on the side near the line's home", unit),
      [](const FlagView& r) { return r.local_side == r.home_class ? 1 : 0; },
      [unit](int near) { return fmt::format("{}-side {}s", near ? "near" : "far", unit); },
      [unit](int near) {
        return fmt::format(", polled on its GPU by {}s of the side {} its home", unit, near ? "near" : "far from");
      },
      [unit](int near) {
        return fmt::format("let {}s of the side {} its home poll it on its GPU", unit, near ? "near" : "far from");
      }};
  f.remote.by_side = side_factor(fmt::format("the side of the {} on the GPU without the flag", unit),
                                 &FlagView::remote_side, unit, ", reached across from {} of the other GPU",
                                 "let {} of the other GPU be the ones that reach across");
  f.remote.by_home = {
      fmt::format("whether the {} on the GPU without the flag is on the side numbered as the line's class", unit),
      [](const FlagView& r) { return r.remote_side == r.home_class ? 1 : 0; },
      [unit](int same) { return fmt::format("{}s of the {} side", unit, same ? "same-numbered" : "other"); },
      [unit](int same) {
        return fmt::format(", reached across from {}s of the other GPU's {} side", unit,
                           same ? "same-numbered" : "other");
      },
      [unit](int same) {
        return fmt::format("let the other GPU's {}s of the side {} the line's class reach across", unit,
                           same ? "numbered as" : "not numbered as");
      }};
  f.flag_gpu = {"which GPU holds the flag", [](const FlagView& r) { return r.flag_gpu; },
                [](int g) { return fmt::format("flags on g{}", g); }, [](int g) { return fmt::format(" on g{}", g); },
                [](int g) { return fmt::format("keep it in g{}'s memory", g); }};
  return f;
}

// The larger of a role's two effects. One under the threshold is named by
// the unit's side, the plainer words, whichever of the two was larger.
Effect role_effect(const Role& role, const std::vector<FlagView>& rows, double threshold) {
  const Effect side = effect_of(role.by_side, rows), home = effect_of(role.by_home, rows);
  if (!home.applies || !side.applies) return home.applies ? home : side;
  Effect larger = home.size > side.size ? home : side;
  if (larger.size <= threshold) larger.factor = side.factor;
  return larger;
}

// The map the sentences speak of: same-line where it has pairs between GPUs
// by class and side, else the first that has, else the first with a pair of
// GPUs in its table.
const RunSummary::Map* lead_map(const RunSummary& s) {
  const auto finite = [](const CrossGpuStructureRow& r) { return std::isfinite(r.median_ns); };
  for (const RunSummary::Map& m : s.maps)
    if (m.placement == "same-line" && std::any_of(m.cross_gpu_structure.begin(), m.cross_gpu_structure.end(), finite))
      return &m;
  for (const RunSummary::Map& m : s.maps)
    if (std::any_of(m.cross_gpu_structure.begin(), m.cross_gpu_structure.end(), finite)) return &m;
  for (const RunSummary::Map& m : s.maps)
    for (const RunSummary::GpuPair& p : m.gpu_pairs)
      if (p.row.gpu_a != p.row.gpu_b && std::isfinite(p.row.oneway_ns.median)) return &m;
  return nullptr;
}

// What a signal between GPUs costs against one inside a GPU.
void cost_finding(const RunSummary::Map& map, const std::string& unit, std::vector<std::string>& out) {
  const std::string& placement = map.placement;
  std::vector<const RunSummary::GpuPair*> across, inside;
  for (const RunSummary::GpuPair& p : map.gpu_pairs) {
    // A latency is positive: a summary read back from a meta.json that says
    // otherwise has nothing to compare (and nothing to divide by).
    if (!std::isfinite(p.row.oneway_ns.median) || p.row.oneway_ns.median <= 0) continue;
    if (p.row.gpu_a == p.row.gpu_b) inside.push_back(&p);
    else if (p.row.flags_on == "both") across.push_back(&p);
  }
  if (across.empty()) return;
  const auto median = [](const RunSummary::GpuPair* p) { return p->row.oneway_ns.median; };
  const auto by_median = [&](const auto* x, const auto* y) { return median(x) < median(y); };
  const auto [cheap, dear] = std::minmax_element(across.begin(), across.end(), by_median);
  // "g0 – g1 over NV18", or without the link where the device named none.
  const auto pair_words = [](const RunSummary::GpuPair& p) {
    return gpus_words(p.row.gpu_a, p.row.gpu_b) +
           (p.link.empty() || p.link == "unknown" ? std::string() : " over " + p.link);
  };
  std::string cost;
  if (across.size() == 1)
    cost = fmt::format("A signal between GPUs ({}) costs {} one-way (the median of {} {} pairs, flags on either GPU)",
                       pair_words(**cheap), ns(median(*cheap)), (*cheap)->row.cells, unit);
  else
    cost = fmt::format("A signal between GPUs costs {:.0f}-{} one-way by pair of GPUs (the cheapest {}, the dearest "
                       "{}; flags on either GPU)",
                       median(*cheap), ns(median(*dear)), pair_words(**cheap), pair_words(**dear));
  if (inside.empty()) {
    out.push_back(fmt::format("{} ({} map).", cost, placement));
    return;
  }
  const auto [lo, hi] = std::minmax_element(inside.begin(), inside.end(), by_median);
  double sum = 0;
  for (const auto* p : inside) sum += median(p);
  const double within = sum / static_cast<double>(inside.size());
  const std::string within_words = ns(median(*lo)) == ns(median(*hi))
                                       ? ns(median(*lo))
                                       : fmt::format("{:.0f}-{}", median(*lo), ns(median(*hi)));
  double mean_across = 0;
  for (const auto* p : across) mean_across += median(p);
  mean_across /= static_cast<double>(across.size());
  out.push_back(fmt::format("{}, {:.1f}× the {} of a signal inside one GPU ({} map): keep the signals a "
                                   "kernel waits on most inside one GPU.",
                                   cost, mean_across / within, within_words, placement));
}

// The map's rows as each flag sees them.
std::vector<FlagView> flag_views(const RunSummary::Map& map) {
  std::vector<FlagView> rows;
  for (const CrossGpuStructureRow& s : map.cross_gpu_structure) {
    if (!std::isfinite(s.median_ns) || s.median_ns <= 0 || s.cells == 0) continue;
    const bool flag_on_a = s.flags_on == s.gpu_a;
    rows.push_back({s.flags_on, s.home_class, flag_on_a ? s.side_a : s.side_b, flag_on_a ? s.side_b : s.side_a,
                    s.median_ns});
  }
  return rows;
}

double mean_median(const std::vector<FlagView>& rows) {
  double mean = 0;
  for (const FlagView& r : rows) mean += r.median;
  return rows.empty() ? 0.0 : mean / static_cast<double>(rows.size());
}

// The effects of the line's class and of each unit's role over `rows`, and
// of the flag's GPU where the rows hold several.
std::vector<Effect> effects_of(const Factors& f, const std::vector<FlagView>& rows) {
  const double threshold = kAcrossGpusEffectShare * mean_median(rows);
  std::vector<Effect> effects{effect_of(f.home_class, rows), role_effect(f.remote, rows, threshold),
                              role_effect(f.local, rows, threshold), effect_of(f.flag_gpu, rows)};
  std::erase_if(effects, [](const Effect& e) { return !e.applies; });
  return effects;
}

// Whether the GPUs holding flags disagree on which level of a factor that
// matters is the cheap one. Each GPU numbers its own home classes and sides
// (side 0 holds its lowest unit): where two GPUs' numbers name different
// halves, pooling their rows cancels the effects out (a pair of H200s whose
// GPU 0 had 64 and 68 SMs a side: class 0 cheapest with the flag on g0,
// class 1 with it on g1), and the rule must be given per GPU.
bool gpus_disagree(const Factors& f, const std::map<int, std::vector<FlagView>>& by_gpu) {
  std::map<std::string, std::pair<const Factor*, int>> cheap;  // by factor name: the first GPU's cheap level
  for (const auto& [gpu, rows] : by_gpu) {
    const double threshold = kAcrossGpusEffectShare * mean_median(rows);
    for (const Effect& e : effects_of(f, rows)) {
      if (e.size <= threshold) continue;
      const auto [seen, first] = cheap.try_emplace(e.factor->name, e.factor, e.cheap);
      if (!first && seen->second != std::pair(e.factor, e.cheap)) return true;
    }
  }
  return false;
}

// Which factors change a signal between GPUs, by how much, and the
// cheapest and dearest combination of those that do; `scope` ("With its
// flag on g1, ") starts the sentences of one flag GPU's rows.
void factor_findings(const std::vector<FlagView>& rows, const std::string& placement, const std::string& unit,
                     const std::string& scope, std::vector<std::string>& out) {
  if (rows.size() < 2) return;
  const auto sentence = [&scope](std::string text) {
    if (scope.empty()) text.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(text.front())));
    return scope + text;
  };
  const double mean = mean_median(rows);
  const Factors f = factors(unit);
  const double threshold = kAcrossGpusEffectShare * mean;
  const std::vector<Effect> effects = effects_of(f, rows);
  if (effects.empty()) return;
  const auto matters = [&](const Effect& e) { return e.size > threshold; };
  std::vector<Effect> big, small;
  for (const Effect& e : effects) (matters(e) ? big : small).push_back(e);

  std::vector<std::string> small_words;
  for (const Effect& e : small) small_words.push_back(fmt::format("{} ({})", e.factor->name, ns(e.size)));
  const std::string how = fmt::format("{} map; each combination's median weighs the same", placement);
  if (big.empty()) {
    out.push_back(sentence(fmt::format("none of {} changes what a signal between GPUs costs by more than {} ({}): "
                                       "for a flag two GPUs share, any line and any {}s will do.",
                                       join(small_words, " or "), threshold_words(), how, unit)));
    return;
  }
  std::vector<std::string> big_words;
  for (const Effect& e : big)
    big_words.push_back(fmt::format("{} ({} {} less than {}, {})", e.factor->name, e.factor->words(e.cheap),
                                    ns(e.size), e.factor->words(e.dear), percent(e.size / mean)));
  out.push_back(sentence(fmt::format(
      "what a signal between GPUs costs follows {}{} ({}).", join(big_words),
      small_words.empty()
          ? std::string()
          : fmt::format("; {} change{} it by under {}", join(small_words), small_words.size() == 1 ? "s" : "",
                        threshold_words()),
      how)));

  // The combinations of the factors that matter, each the mean of its rows.
  std::map<std::vector<int>, std::pair<double, int>> combinations;
  for (const FlagView& r : rows) {
    std::vector<int> key;
    for (const Effect& e : big) key.push_back(e.factor->level(r));
    auto& [sum, n] = combinations[key];
    sum += r.median;
    ++n;
  }
  const auto mean_of = [](const auto& c) { return c.second.first / c.second.second; };
  const auto [cheapest, dearest] = std::minmax_element(
      combinations.begin(), combinations.end(), [&](const auto& x, const auto& y) { return mean_of(x) < mean_of(y); });
  // In the order a reader places a flag: the GPU, the line, who polls it, who reaches it.
  const auto in_order = [&](const std::vector<int>& key, auto&& words) {
    std::vector<std::string> parts;
    for (const Factor* factor : {&f.flag_gpu, &f.home_class, &f.local.by_side, &f.local.by_home, &f.remote.by_side,
                                 &f.remote.by_home})
      for (std::size_t i = 0; i < big.size(); ++i)
        if (big[i].factor == factor) parts.push_back(words(*factor, key[i]));
    return parts;
  };
  const auto combination = [&](const std::vector<int>& key) {
    std::string words = "a flag";
    for (const std::string& part : in_order(key, [](const Factor& x, int level) { return x.part(level); }))
      words += part;
    return words;
  };
  const double low = mean_of(*cheapest), high = mean_of(*dearest);
  out.push_back(sentence(fmt::format(
      "cheapest: {}, {} one-way; dearest: {}, {} ({} more). For a flag two GPUs share, {} (homes.json lists every "
      "line's class, units.csv every {}'s side).",
      combination(cheapest->first), ns(low), combination(dearest->first), ns(high), percent(high / low - 1.0),
      join(in_order(cheapest->first, [](const Factor& x, int level) { return x.advice(level); })), unit)));
}

}  // namespace

std::vector<std::string> across_gpu_findings(const RunSummary& s) {
  std::vector<std::string> out;
  if (const RunSummary::Map* lead = lead_map(s)) {
    const std::string unit = s.run.unit_word();
    cost_finding(*lead, unit, out);
    const std::vector<FlagView> rows = flag_views(*lead);
    std::map<int, std::vector<FlagView>> by_gpu;
    for (const FlagView& r : rows) by_gpu[r.flag_gpu].push_back(r);
    if (by_gpu.size() < 2 || !gpus_disagree(factors(unit), by_gpu)) {
      factor_findings(rows, lead->placement, unit, "", out);
    } else {
      out.push_back(fmt::format("Each GPU numbers its own home classes and sides (side 0 holds its lowest {}), "
                                "and here the GPUs' numbers name different halves: the rule is given for each GPU "
                                "that holds the flag ({} map).",
                                unit, lead->placement));
      for (const auto& [gpu, flag_rows] : by_gpu)
        factor_findings(flag_rows, lead->placement, unit, fmt::format("With its flag on g{}, ", gpu), out);
    }
  }
  return out;
}

}  // namespace cumap
