// summary.md's and report.html's "Across GPUs" (across_gpus_summary.hpp).
#include "report/across_gpus_summary.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "report/json_number.hpp"
#include "report/meta_fields.hpp"
#include "report/summary_text.hpp"

namespace cumap {
namespace {

using Json = nlohmann::json;
using meta_fields::member;
using meta_fields::text;
using meta_fields::whole;
using summary_text::cell;
using summary_text::csv_field;
using summary_text::csv_number;
using summary_text::range;
using summary_text::value;

std::optional<double> number(const Json& j, const char* key) {
  const Json& v = member(j, key);
  if (!v.is_number()) return std::nullopt;
  const double x = v.get<double>();
  return std::isfinite(x) ? std::optional<double>(x) : std::nullopt;
}

// "g1" -> 1; anything else (such as "both") -> nothing.
std::optional<int> gpu_named(const std::string& name) {
  int gpu = 0;
  if (name.size() < 2 || name.front() != 'g') return std::nullopt;
  const auto [end, error] = std::from_chars(name.data() + 1, name.data() + name.size(), gpu);
  return error == std::errc() && end == name.data() + name.size() ? std::optional<int>(gpu) : std::nullopt;
}

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

// ---- The findings.

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

Factors factors(const std::string& unit) {
  Factors f;
  f.home_class = {"the home class of the flag's line", [](const FlagView& r) { return r.home_class; },
                  [](int c) { return fmt::format("class-{} lines", c); },
                  [](int c) { return fmt::format(" in a class-{} line", c); },
                  [](int c) { return fmt::format("put it in a class-{} line of the GPU that holds it", c); }};
  f.local.by_side = {fmt::format("the side of the {} beside the flag", unit),
                     [](const FlagView& r) { return r.local_side; },
                     [unit](int s) { return fmt::format("side-{} {}s", s, unit); },
                     [unit](int s) { return fmt::format(", polled on its GPU by side-{} {}s", s, unit); },
                     [unit](int s) { return fmt::format("let side-{} {}s poll it on its GPU", s, unit); }};
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
  f.remote.by_side = {
      fmt::format("the side of the {} on the GPU without the flag", unit), [](const FlagView& r) { return r.remote_side; },
      [unit](int s) { return fmt::format("side-{} {}s", s, unit); },
      [unit](int s) { return fmt::format(", reached across from side-{} {}s of the other GPU", s, unit); },
      [unit](int s) { return fmt::format("let side-{} {}s of the other GPU be the ones that reach across", s, unit); }};
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

// The placement the sentences speak of: same-line where it has rows across
// GPUs, else the first that has.
std::string lead_placement(const AcrossGpus& a) {
  for (const AcrossGpus::Structure& s : a.structure)
    if (s.placement == "same-line" && s.median_ns) return s.placement;
  for (const AcrossGpus::Structure& s : a.structure)
    if (s.median_ns) return s.placement;
  for (const AcrossGpus::GpuPair& p : a.gpu_pairs)
    if (p.gpu_a != p.gpu_b && p.median_ns) return p.placement;
  return {};
}

// What a signal between GPUs costs against one inside a GPU.
void cost_finding(AcrossGpus& a, const std::string& placement, const std::string& unit) {
  std::vector<const AcrossGpus::GpuPair*> across, inside;
  for (const AcrossGpus::GpuPair& p : a.gpu_pairs) {
    if (p.placement != placement || !p.median_ns) continue;
    if (p.gpu_a == p.gpu_b) inside.push_back(&p);
    else if (p.flags_on == "both") across.push_back(&p);
  }
  if (across.empty()) return;
  const auto by_median = [](const auto* x, const auto* y) { return *x->median_ns < *y->median_ns; };
  const auto [cheap, dear] = std::minmax_element(across.begin(), across.end(), by_median);
  // "g0 – g1 over NV18", or without the link where the device named none.
  const auto pair_words = [](const AcrossGpus::GpuPair& p) {
    return gpus_words(p.gpu_a, p.gpu_b) +
           (p.link.empty() || p.link == "unknown" ? std::string() : " over " + p.link);
  };
  std::string cost;
  if (across.size() == 1)
    cost = fmt::format("A signal between GPUs ({}) costs {} one-way (the median of {} {} pairs, flags on either GPU)",
                       pair_words(**cheap), ns(*(*cheap)->median_ns), (*cheap)->cells, unit);
  else
    cost = fmt::format("A signal between GPUs costs {:.0f}-{} one-way by pair of GPUs (the cheapest {}, the dearest "
                       "{}; flags on either GPU)",
                       *(*cheap)->median_ns, ns(*(*dear)->median_ns), pair_words(**cheap), pair_words(**dear));
  if (inside.empty()) {
    a.findings.push_back(fmt::format("{} ({} map).", cost, placement));
    return;
  }
  const auto [lo, hi] = std::minmax_element(inside.begin(), inside.end(), by_median);
  double sum = 0;
  for (const auto* p : inside) sum += *p->median_ns;
  const double within = sum / static_cast<double>(inside.size());
  const std::string within_words = ns(*(*lo)->median_ns) == ns(*(*hi)->median_ns)
                                       ? ns(*(*lo)->median_ns)
                                       : fmt::format("{:.0f}-{}", *(*lo)->median_ns, ns(*(*hi)->median_ns));
  double mean_across = 0;
  for (const auto* p : across) mean_across += *p->median_ns;
  mean_across /= static_cast<double>(across.size());
  a.findings.push_back(fmt::format("{}, {:.1f}× the {} of a signal inside one GPU ({} map): keep the signals a "
                                   "kernel waits on most inside one GPU.",
                                   cost, mean_across / within, within_words, placement));
}

// Which factors change a signal between GPUs, by how much, and the
// cheapest and dearest combination of those that do.
void factor_findings(AcrossGpus& a, const std::string& placement, const std::string& unit) {
  std::vector<FlagView> rows;
  for (const AcrossGpus::Structure& s : a.structure) {
    if (s.placement != placement || !s.median_ns || s.cells == 0) continue;
    const bool flag_on_a = s.flags_on == s.gpu_a;
    rows.push_back({s.flags_on, s.home_class, flag_on_a ? s.side_a : s.side_b, flag_on_a ? s.side_b : s.side_a,
                    *s.median_ns});
  }
  if (rows.size() < 2) return;
  double mean = 0;
  for (const FlagView& r : rows) mean += r.median;
  mean /= static_cast<double>(rows.size());

  const Factors f = factors(unit);
  const double threshold = kAcrossGpusEffectShare * mean;
  std::vector<Effect> effects{effect_of(f.home_class, rows), role_effect(f.remote, rows, threshold),
                              role_effect(f.local, rows, threshold), effect_of(f.flag_gpu, rows)};
  std::erase_if(effects, [](const Effect& e) { return !e.applies; });
  if (effects.empty()) return;
  const auto matters = [&](const Effect& e) { return e.size > threshold; };
  std::vector<Effect> big, small;
  for (const Effect& e : effects) (matters(e) ? big : small).push_back(e);

  std::vector<std::string> small_words;
  for (const Effect& e : small) small_words.push_back(fmt::format("{} ({})", e.factor->name, ns(e.size)));
  const std::string how = fmt::format("{} map; each combination's median weighs the same", placement);
  if (big.empty()) {
    a.findings.push_back(fmt::format("None of {} changes what a signal between GPUs costs by more than {} ({}): for "
                                     "a flag two GPUs share, any line and any {}s will do.",
                                     join(small_words, " or "), threshold_words(), how, unit));
    return;
  }
  std::vector<std::string> big_words;
  for (const Effect& e : big)
    big_words.push_back(fmt::format("{} ({} {} less than {}, {})", e.factor->name, e.factor->words(e.cheap),
                                    ns(e.size), e.factor->words(e.dear), percent(e.size / mean)));
  a.findings.push_back(fmt::format(
      "What a signal between GPUs costs follows {}{} ({}).", join(big_words),
      small_words.empty()
          ? std::string()
          : fmt::format("; {} change{} it by under {}", join(small_words), small_words.size() == 1 ? "s" : "",
                        threshold_words()),
      how));

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
  a.findings.push_back(fmt::format(
      "Cheapest: {}, {} one-way; dearest: {}, {} ({} more). For a flag two GPUs share, {} (homes.json lists every "
      "line's class, units.csv every {}'s side).",
      combination(cheapest->first), ns(low), combination(dearest->first), ns(high), percent(high / low - 1.0),
      join(in_order(cheapest->first, [](const Factor& x, int level) { return x.advice(level); })), unit));
}

}  // namespace

AcrossGpus across_gpus_summary(const Json& gpus, const Json& cross_gpu_structure, const std::string& unit_name) {
  AcrossGpus a;
  if (gpus.is_array())
    for (const Json& row : gpus) {
      AcrossGpus::GpuPair p;
      p.placement = text(row, "placement");
      p.gpu_a = whole<int>(row, "gpu_a", 0);
      p.gpu_b = whole<int>(row, "gpu_b", 0);
      p.flags_on = text(row, "flags_on");
      p.link = text(row, "link");
      p.cells = whole<std::size_t>(row, "cells", 0);
      p.median_ns = number(row, "oneway_ns_median");
      p.p05_ns = number(row, "p05_ns");
      p.p95_ns = number(row, "p95_ns");
      a.gpu_pairs.push_back(std::move(p));
    }
  if (cross_gpu_structure.is_array())
    for (const Json& row : cross_gpu_structure) {
      const std::optional<int> flags_on = gpu_named(text(row, "flags_on"));
      if (!flags_on) continue;
      AcrossGpus::Structure s;
      s.placement = text(row, "placement");
      s.gpu_a = whole<int>(row, "gpu_a", 0);
      s.gpu_b = whole<int>(row, "gpu_b", 0);
      s.flags_on = *flags_on;
      s.home_class = whole<int>(row, "home_class", 0);
      s.side_a = whole<int>(row, "side_a", 0);
      s.side_b = whole<int>(row, "side_b", 0);
      s.median_ns = number(row, "median_ns");
      s.p05_ns = number(row, "p05_ns");
      s.p95_ns = number(row, "p95_ns");
      s.cells = whole<std::size_t>(row, "cells", 0);
      a.structure.push_back(std::move(s));
    }
  const std::string unit = unit_name.empty() ? "unit" : unit_name;
  if (const std::string lead = lead_placement(a); !lead.empty()) {
    cost_finding(a, lead, unit);
    factor_findings(a, lead, unit);
  }
  return a;
}

std::string across_gpus_markdown(const AcrossGpus& a, const std::string& unit_name) {
  if (a.empty()) return {};
  const std::string unit = unit_name.empty() ? "unit" : unit_name;
  std::string md = "## Across GPUs\n\n";
  for (const std::string& f : a.findings) md += "- " + f + "\n";
  if (!a.findings.empty()) md += "\n";
  if (!a.gpu_pairs.empty()) {
    md += fmt::format(
        "One-way latency in ns between the {0}s of two GPUs, and inside each GPU for comparison (`gpus.csv`). "
        "Cells: {0} pairs (each direction once with --ordered). Flags on *both*: every pair between GPUs measured "
        "with its flags on each GPU, each GPU's lines weighing the same; *g0*: the lines in GPU 0's memory only.\n\n",
        unit);
    md += "| placement | GPUs | flags on | link | median | p05–p95 | cells |\n";
    md += "| --- | --- | --- | --- | ---: | ---: | ---: |\n";
    for (const AcrossGpus::GpuPair& p : a.gpu_pairs)
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", cell(p.placement), gpus_words(p.gpu_a, p.gpu_b),
                        cell(p.flags_on), cell(p.link), value(p.median_ns), range(p.p05_ns, p.p95_ns), p.cells);
    md += "\n";
  }
  if (!a.structure.empty()) {
    md += "### By home class and side\n\n";
    md += fmt::format(
        "One-way latency in ns of the pairs between two GPUs *a* – *b* by the GPU holding the flags, the home class "
        "of the flag's line (a class of that GPU) and the side of each {0} on its own GPU (`meta.json`, "
        "`cross_gpu_structure`). Cells: {0} pairs.\n\n",
        unit);
    md += "| placement | GPUs | flags on | home class | side on a | side on b | median | p05–p95 | cells |\n";
    md += "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    for (const AcrossGpus::Structure& s : a.structure)
      md += fmt::format("| {} | {} | g{} | {} | {} | {} | {} | {} | {} |\n", cell(s.placement),
                        gpus_words(s.gpu_a, s.gpu_b), s.flags_on, s.home_class, s.side_a, s.side_b,
                        value(s.median_ns), range(s.p05_ns, s.p95_ns), s.cells);
    md += "\n";
  }
  return md;
}

std::string across_gpus_csv_rows(const AcrossGpus& a) {
  std::string out;
  for (const AcrossGpus::GpuPair& p : a.gpu_pairs)
    out += fmt::format("{},all,gpu-pair,,{},{},{},{},{}\n", csv_field(p.placement),
                       csv_field(fmt::format("g{}-g{}, flags on {}, {}", p.gpu_a, p.gpu_b, p.flags_on, p.link)),
                       csv_number(p.median_ns), csv_number(p.p05_ns), csv_number(p.p95_ns), p.cells);
  for (const AcrossGpus::Structure& s : a.structure)
    out += fmt::format("{},{},across-gpus,,{},{},{},{},{}\n", csv_field(s.placement), s.home_class,
                       csv_field(fmt::format("g{}-g{}, flags on g{}, side {} on g{}, side {} on g{}", s.gpu_a,
                                             s.gpu_b, s.flags_on, s.side_a, s.gpu_a, s.side_b, s.gpu_b)),
                       csv_number(s.median_ns), csv_number(s.p05_ns), csv_number(s.p95_ns), s.cells);
  return out;
}

Json to_json(const AcrossGpus& a) {
  Json pairs = Json::array();
  for (const AcrossGpus::GpuPair& p : a.gpu_pairs)
    pairs.push_back({{"placement", p.placement},
                     {"gpu_a", p.gpu_a},
                     {"gpu_b", p.gpu_b},
                     {"flags_on", p.flags_on},
                     {"link", p.link},
                     {"cells", p.cells},
                     {"median_ns", number_or_null(p.median_ns)},
                     {"p05_ns", number_or_null(p.p05_ns)},
                     {"p95_ns", number_or_null(p.p95_ns)}});
  Json structure = Json::array();
  for (const AcrossGpus::Structure& s : a.structure)
    structure.push_back({{"placement", s.placement},
                         {"gpu_a", s.gpu_a},
                         {"gpu_b", s.gpu_b},
                         {"flags_on", fmt::format("g{}", s.flags_on)},
                         {"home_class", s.home_class},
                         {"side_a", s.side_a},
                         {"side_b", s.side_b},
                         {"median_ns", number_or_null(s.median_ns)},
                         {"p05_ns", number_or_null(s.p05_ns)},
                         {"p95_ns", number_or_null(s.p95_ns)},
                         {"cells", s.cells}});
  return {{"gpu_pairs", pairs}, {"structure", structure}, {"findings", a.findings}};
}

}  // namespace cumap
