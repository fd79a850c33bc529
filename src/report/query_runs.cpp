// `cumap query` over a run directory (query_runs.hpp).
#include "report/query_runs.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/printable.hpp"
#include "core/units.hpp"
#include "cumap/error.hpp"
#include "cumap/options.hpp"
#include "core/run_comparison.hpp"
#include "report/json_number.hpp"
#include "report/summary_text.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using summary_text::cell;
using summary_text::csv_field;
using summary_text::csv_number;
using summary_text::range;
using summary_text::value;

UnitPlaces places_of(const SavedRun& run) {
  const RunHeader& h = run.header();
  UnitPlaces p;
  p.side = unit_side_numbers(h);
  for (const UnitGroup& g : run.topology.groups)
    for (int u : g.units) p.group.emplace(u, g.name);
  p.class_count = std::max(1, h.class_count);
  p.across = h.across_devices();
  p.unit_word = h.unit_word();
  return p;
}

// The units of `spec`, each one the run measured.
std::vector<int> units_of(const std::string& spec, const SavedRun& run) {
  const RunHeader& h = run.header();
  const std::set<int> measured(h.units.begin(), h.units.end());
  if (measured.empty()) throw UsageError(fmt::format("query: {} records no units", run.shown));
  std::vector<int> units;
  if (h.across_devices()) {
    std::map<int, int> count_by_device;
    for (int id : measured) {
      const UnitRef u = unit_ref(id, 0);
      count_by_device[u.device] = std::max(count_by_device[u.device], u.unit + 1);
    }
    units = parse_device_unit_list(spec, count_by_device);
  } else {
    const std::string item = h.unit_word();
    units = parse_unit_list(spec, *measured.rbegin() + 1, {"--units", item, "this run"});
  }
  for (int u : units)
    if (!measured.contains(u))
      throw UsageError(fmt::format("--units: {} {} is not in {} (it measured {})", h.unit_word(),
                                   format_unit_id(u, h.across_devices()), run.shown,
                                   h.across_devices() ? fmt::format("{} units", measured.size())
                                                      : format_unit_list({measured.begin(), measured.end()})));
  if (units.size() < 2)
    throw UsageError(fmt::format("--units: name two {0}s (a pair) or more (a set); one {0} has no cost of its own",
                                 h.unit_word()));
  return units;
}

// Each placement's maps from the run's files: per class, the headline, the
// line spread, and the pair's rows of pairs.csv where there are two units.
std::vector<PlacementMaps> maps_of(const SavedRun& run, const std::vector<int>& units) {
  const RunSummary& s = *run.map;
  std::vector<PairRow> rows;
  if (units.size() == 2) rows = read_pair_rows(run, units[0], units[1]);
  std::vector<PlacementMaps> maps;
  for (const RunSummary::Map& m : s.maps) {
    PlacementMaps p;
    p.placement = s.map_name(m);
    const std::string headline = fmt::format("matrix-{}.csv", p.placement);
    for (int c = 0; s.run.class_count > 1 && c < s.run.class_count; ++c) {
      const std::string name = fmt::format("matrix-{}-home{}.csv", p.placement, c);
      if (run_has_file(run, name)) p.classes.push_back({c, read_run_matrix(run, name)});
    }
    if (!run_has_file(run, headline))
      throw UsageError(fmt::format("query: {} has no {} (is the output set complete?)", run.shown, headline));
    if (p.classes.empty()) {
      // One class (or none on the dsm path): the headline is that class's map.
      std::optional<int> only;
      if (s.has_homes()) only = 0;
      p.classes.push_back({only, read_run_matrix(run, headline)});
    } else {
      p.headline_ns = read_run_matrix(run, headline);
    }
    if (const std::string spread = fmt::format("line-spread-{}.csv", p.placement); run_has_file(run, spread))
      p.line_spread_ns = read_run_matrix(run, spread);
    for (const PairRow& r : rows)
      if (to_string(r.placement) == m.placement) p.pair_lines.push_back(r.stats);
    maps.push_back(std::move(p));
  }
  return maps;
}

// The barrier and contention sweeps the directory holds: itself, or its
// barrier/ and contention/ beside the map (as plots/ keeps them).
std::vector<SavedRun> sweeps_of(const SavedRun& run) {
  if (run.sync) return {run};
  std::vector<SavedRun> sweeps;
  for (const char* sub : {"barrier", "contention"}) {
    std::error_code ec;
    if (!fs::is_regular_file(run.dir / sub / "meta.json", ec)) continue;
    SavedRun sweep = read_saved_run(run.dir / sub, "query");
    if (sweep.sync && sweep.sync->command == sub) sweeps.push_back(std::move(sweep));
  }
  return sweeps;
}

std::string unit_name(const QueryAnswer& q, int u) {
  return fmt::format("{} {}", q.run.unit_word(), format_unit_id(u, q.places.across));
}

std::string place_words(const QueryAnswer& q, int u) {
  std::vector<std::string> parts;
  if (const auto s = q.places.side.find(u); s != q.places.side.end()) parts.push_back(fmt::format("side {}", s->second));
  if (const auto g = q.places.group.find(u); g != q.places.group.end()) parts.push_back(g->second);
  return parts.empty() ? "no side or group recorded" : fmt::format("{}", fmt::join(parts, ", "));
}

std::string class_words(const std::optional<int>& c, bool headline) {
  if (headline) return "every class (mean)";
  return c ? std::to_string(*c) : "the run's one";
}

std::string sides_words(const std::map<int, std::size_t>& per_side) {
  std::vector<std::string> parts;
  for (const auto& [side, n] : per_side)
    parts.push_back(side < 0 ? fmt::format("{} without a side", n) : fmt::format("{} on side {}", n, side));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string cheaper_words(const PairAnswer::Cheapest& c, const std::string& what) {
  return fmt::format("{}: class {} is cheaper for {}: {:.1f} ns against {:.1f} ns in class {} ({:.1f} % less)",
                     c.placement, c.home_class, what, c.ns, c.next_ns, c.next_class,
                     100.0 * (c.next_ns - c.ns) / c.next_ns);
}

std::string case_match_words(const SetAnswer::MeasuredCase& m) {
  return m.these_units ? "these units" : m.like_these ? "like these" : "";
}

}  // namespace

QueryAnswer query_saved_run(const SavedRun& run, const std::string& spec) {
  QueryAnswer q;
  q.dir = run.shown;
  q.run = run.header();
  q.places = places_of(run);
  const std::vector<int> units = units_of(spec, run);
  if (units.size() == 2) {
    if (!run.map)
      throw UsageError(fmt::format("query: {} is a {} run: a pair's cost is in a map run's directory", run.shown,
                                   run.kind()));
    const std::vector<PlacementMaps> maps = maps_of(run, units);
    q.pairs_csv = run_has_file(run, "pairs.csv");
    q.pair = query_pair(units[0], units[1], maps, q.places);
    return q;
  }
  q.set = query_set(units, run.map ? maps_of(run, units) : std::vector<PlacementMaps>{}, q.places);
  for (const SavedRun& sweep : sweeps_of(run)) {
    const ChipMatch chip = match_chips(run.header(), run.host_cores(), sweep.header(), sweep.host_cores());
    add_cases(*q.set, sweep.sync->command, read_run_cases(sweep), places_of(sweep), chip.same);
    std::string serials;
    for (const std::string& s : sweep.header().serials) serials += (serials.empty() ? "" : ", ") + s;
    q.case_sources[sweep.sync->command] = {
        sweep.shown, chip.same,
        fmt::format("{}{}", sweep.header().device_name, serials.empty() ? "" : " serial " + serials)};
  }
  return q;
}

std::string query_markdown(const QueryAnswer& q) {
  const std::string unit = q.run.unit_word();
  std::string md;
  if (q.pair) {
    const PairAnswer& p = *q.pair;
    md += fmt::format("# cumap query: {} and {} in {}\n\n", unit_name(q, p.a), unit_name(q, p.b), cell(q.dir));
    md += fmt::format("{}: {}. {}: {}. {} ({}).\n\n", unit_name(q, p.a), place_words(q, p.a), unit_name(q, p.b),
                      place_words(q, p.b), cell(q.run.device_name), cell(q.run.backend));
    md += "One-way latency in ns of the pair with its flags in lines of each home class (the per-class maps), and "
          "every class together (the headline map).\n\n";
    md += "| placement | home class | where the pair sits | median | p05–p95 | line spread | lines |\n";
    md += "| --- | --- | --- | ---: | ---: | ---: | ---: |\n";
    for (const PairAnswer::Row& r : p.rows)
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", cell(r.placement),
                        class_words(r.home_class, r.headline), cell(r.where.empty() ? "–" : r.where),
                        value(r.median_ns), range(r.p05_ns, r.p95_ns), value(r.line_spread_ns),
                        r.lines ? std::to_string(r.lines) : "–");
    md += "\n";
    for (const PairAnswer::Cheapest& c : p.cheapest) md += "- " + cheaper_words(c, "them") + "\n";
    if (!p.cheapest.empty()) md += "\n";
    if (!q.pairs_csv)
      md += "p05–p95 and the line spread of each class come from `pairs.csv`, which this set does not hold; the "
            "headline's line spread is `line-spread-<placement>.csv`'s.\n";
    return md;
  }
  const SetAnswer& s = *q.set;
  const std::vector<int>& u = s.units;
  md += fmt::format("# cumap query: {} {}s in {}\n\n", u.size(), unit, cell(q.dir));
  std::vector<std::string> ids;
  for (int id : u) ids.push_back(format_unit_id(id, q.places.across));
  md += fmt::format("{}s {}: {}. {} ({}).\n\n", unit,
                    q.places.across ? fmt::format("{}", fmt::join(ids, ",")) : format_unit_list(u),
                    sides_words(s.units_per_side), cell(q.run.device_name), cell(q.run.backend));
  if (!s.flag.empty()) {
    const std::size_t pairs = u.size() * (u.size() - 1) / 2;
    md += "## A flag they share\n\n";
    md += fmt::format("One-way latency in ns over the set's {} pairs in each class's map: the mean is what a flag "
                      "they all share is predicted to cost one way, the largest what its slowest pair waits.\n\n",
                      pairs);
    md += fmt::format("| placement | home class | {}s of the set on its side | mean | median | largest | pairs |\n",
                      unit);
    md += "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n";
    for (const SetAnswer::Flag& f : s.flag)
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", cell(f.placement),
                        class_words(f.home_class, f.headline),
                        f.home_class && !f.headline ? std::to_string(f.near_units) : "–", value(f.mean_ns),
                        value(f.median_ns), value(f.max_ns), f.pairs);
    md += "\n";
    for (const PairAnswer::Cheapest& c : s.cheapest) md += "- " + cheaper_words(c, "a flag they share") + "\n";
    if (!s.cheapest.empty()) md += "\n";
  }
  const int k = static_cast<int>(u.size());
  for (const char* command : {"barrier", "contention"}) {
    std::vector<const SetAnswer::MeasuredCase*> cases;
    for (const SetAnswer::MeasuredCase& m : s.cases)
      if (m.command == command) cases.push_back(&m);
    const bool barrier = std::string(command) == "barrier";
    const auto source = q.case_sources.find(command);
    if (source == q.case_sources.end()) continue;
    if (cases.empty()) {
      md += fmt::format("## {} at k = {} (`{}`)\n\nThe sweep has no case at k = {} (it measured k = {}).\n\n",
                        barrier ? "Barrier" : "Contention", k, cell(source->second.dir), k,
                        fmt::join(s.case_ks, ", "));
      continue;
    }
    md += fmt::format("## {} at k = {} (`{}`)\n\n", barrier ? "Barrier" : "Contention", k,
                      cell(source->second.dir));
    if (!source->second.same_chip)
      md += fmt::format("Measured on another chip ({}): its sets and sides are that chip's, so no case is of these "
                        "{}s; compare by how many {}s each side holds.\n\n",
                        cell(source->second.chip), unit, unit);
    md += fmt::format(
        "Measured on the sweep's own sets of {} {}s, not on these: each case's {}s by side, and whether they are "
        "these {}s or as many on each side. {}\n\n",
        k, unit, unit, unit,
        barrier ? "Ns per barrier: the mean over launches of each launch's mean over its episodes."
                : "Ns per operation: the median over batches.");
    md += fmt::format("| set | {} | counter home (class) | {} | its {}s by side | like these |\n",
                      barrier ? "implementation" : "operation", barrier ? "ns per barrier" : "ns per operation", unit);
    md += "| --- | --- | --- | ---: | --- | --- |\n";
    for (const SetAnswer::MeasuredCase* m : cases) {
      const SyncCaseResult& c = m->result;
      const std::string home = c.label.counter_class >= 0
                                   ? fmt::format("{} ({})", c.label.counter_home, c.label.counter_class)
                                   : c.label.counter_home;
      md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", cell(c.label.set), cell(c.what), cell(home),
                        c.measured() ? value(c.headline_ns()) : "–",
                        c.participants.empty() ? "–" : sides_words(m->units_per_side), case_match_words(*m));
    }
    md += "\n";
  }
  return md;
}

std::string query_csv(const QueryAnswer& q) {
  if (q.pair) {
    std::string out = "placement,home_class,where,median_ns,p05_ns,p95_ns,line_spread_ns,lines\n";
    for (const PairAnswer::Row& r : q.pair->rows)
      out += fmt::format("{},{},{},{},{},{},{},{}\n", csv_field(r.placement),
                         r.headline ? "all" : (r.home_class ? std::to_string(*r.home_class) : ""), csv_field(r.where),
                         csv_number(r.median_ns), csv_number(r.p05_ns), csv_number(r.p95_ns),
                         csv_number(r.line_spread_ns), r.lines);
    return out;
  }
  std::string out = "section,placement,home_class,what,near_units,pairs,mean_ns,median_ns,max_ns\n";
  for (const SetAnswer::Flag& f : q.set->flag)
    out += fmt::format("flag,{},{},shared flag,{},{},{},{},{}\n", csv_field(f.placement),
                       f.headline ? "all" : (f.home_class ? std::to_string(*f.home_class) : ""),
                       f.home_class && !f.headline ? std::to_string(f.near_units) : "", f.pairs,
                       csv_number(f.mean_ns), csv_number(f.median_ns), csv_number(f.max_ns));
  for (const SetAnswer::MeasuredCase& m : q.set->cases) {
    const SyncCaseResult& c = m.result;
    out += fmt::format("{},{},{},{},{},{},{},{},\n", m.command, csv_field(c.label.set),
                       c.label.counter_class >= 0 ? std::to_string(c.label.counter_class) : "",
                       csv_field(c.what + " " + c.label.counter_home),
                       csv_field(c.participants.empty() ? "" : sides_words(m.units_per_side)), case_match_words(m),
                       csv_number(c.measured() ? c.headline_ns() : kNaN), csv_number(c.ns.median));
  }
  return out;
}

Json query_json(const QueryAnswer& q) {
  const auto id = [&](int u) { return format_unit_id(u, q.places.across); };
  const auto unit_json = [&](int u) {
    Json j = {{"unit", id(u)}};
    if (const auto s = q.places.side.find(u); s != q.places.side.end()) j["side"] = s->second;
    if (const auto g = q.places.group.find(u); g != q.places.group.end()) j["group"] = g->second;
    return j;
  };
  const auto cheapest_json = [](const std::vector<PairAnswer::Cheapest>& list) {
    Json out = Json::array();
    for (const PairAnswer::Cheapest& c : list)
      out.push_back({{"placement", c.placement},
                     {"home_class", c.home_class},
                     {"ns", number_or_null(c.ns)},
                     {"next_class", c.next_class},
                     {"next_ns", number_or_null(c.next_ns)}});
    return out;
  };
  const auto class_json = [](const std::optional<int>& c, bool headline) {
    return headline ? Json("all") : c ? Json(*c) : Json();
  };
  Json j = {{"dir", q.dir}, {"device", q.run.device_name}, {"backend", q.run.backend}, {"unit_name", q.run.unit_word()}};
  if (q.pair) {
    Json rows = Json::array();
    for (const PairAnswer::Row& r : q.pair->rows)
      rows.push_back({{"placement", r.placement},
                      {"home_class", class_json(r.home_class, r.headline)},
                      {"where", r.where},
                      {"median_ns", number_or_null(r.median_ns)},
                      {"p05_ns", number_or_null(r.p05_ns)},
                      {"p95_ns", number_or_null(r.p95_ns)},
                      {"line_spread_ns", number_or_null(r.line_spread_ns)},
                      {"lines", r.lines}});
    j["pair"] = {{"a", unit_json(q.pair->a)},
                 {"b", unit_json(q.pair->b)},
                 {"rows", rows},
                 {"cheapest", cheapest_json(q.pair->cheapest)},
                 {"pairs_csv", q.pairs_csv}};
    return j;
  }
  const SetAnswer& s = *q.set;
  Json units = Json::array(), flag = Json::array(), cases = Json::array(), sides = Json::object();
  for (int u : s.units) units.push_back(unit_json(u));
  Json sources = Json::object();
  for (const auto& [command, source] : q.case_sources)
    sources[command] = {{"dir", source.dir}, {"same_chip", source.same_chip}, {"chip", source.chip}};
  for (const auto& [side, n] : s.units_per_side) sides[side < 0 ? "none" : std::to_string(side)] = n;
  for (const SetAnswer::Flag& f : s.flag)
    flag.push_back({{"placement", f.placement},
                    {"home_class", class_json(f.home_class, f.headline)},
                    {"near_units", f.near_units},
                    {"pairs", f.pairs},
                    {"mean_ns", number_or_null(f.mean_ns)},
                    {"median_ns", number_or_null(f.median_ns)},
                    {"max_ns", number_or_null(f.max_ns)}});
  for (const SetAnswer::MeasuredCase& m : s.cases) {
    Json by_side = Json::object();
    for (const auto& [side, n] : m.units_per_side) by_side[side < 0 ? "none" : std::to_string(side)] = n;
    cases.push_back({{"command", m.command},
                     {"set", m.result.label.set},
                     {"k", m.result.label.k},
                     {"what", m.result.what},
                     {"counter_home", m.result.label.counter_home},
                     {"counter_class", m.result.label.counter_class},
                     {"ns", number_or_null(m.result.measured() ? m.result.headline_ns() : kNaN)},
                     {"units_by_side", by_side},
                     {"these_units", m.these_units},
                     {"like_these", m.like_these}});
  }
  j["set"] = {{"units", units},
              {"units_by_side", sides},
              {"flag", flag},
              {"cheapest", cheapest_json(s.cheapest)},
              {"cases", cases},
              {"case_sources", sources},
              {"case_ks", s.case_ks}};
  return j;
}

}  // namespace cumap
