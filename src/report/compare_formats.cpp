// A comparison of two runs as a page, a table and JSON (compare_formats.hpp).
#include "report/compare_formats.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/json_number.hpp"
#include "report/summary_text.hpp"

namespace cumap {
namespace {

using Json = nlohmann::json;
using summary_text::cell;
using summary_text::csv_field;
using summary_text::csv_number;
using summary_text::value;

std::string signed_value(double v) { return std::isfinite(v) ? fmt::format("{:+.1f}", v) : "–"; }
std::string share(double v) { return std::isfinite(v) ? fmt::format("{:+.2f} %", 100.0 * v) : "–"; }
std::string unsigned_share(double v) { return std::isfinite(v) ? fmt::format("{:.2f} %", 100.0 * v) : "–"; }
double relative(double a, double b) { return std::isfinite(a) && std::isfinite(b) && a != 0 ? (b - a) / a : kNaN; }

std::string device_words(const RunHeader& h) {
  return fmt::format("{} ({}), {} {}s", h.device_name.empty() ? "unknown device" : h.device_name, h.backend,
                     h.units.size(), h.unit_word());
}

std::string serial_words(const RunHeader& h) {
  std::string s;
  for (const std::string& one : h.serials) s += (s.empty() ? "" : ", ") + (one.empty() ? "unknown" : one);
  return s.empty() ? "none" : s;
}

std::string side_words(int side) { return side < 0 ? "–" : std::to_string(side); }

std::string moved_words(const PairedDifference::Moved& m) {
  return fmt::format("{} {:.1f} → {:.1f}", m.what, m.a, m.b);
}

std::string chip_sentence(const RunComparison& c) {
  if (c.chip.same)
    return c.kind == "map" ? "One chip: every matrix file is compared cell by cell."
                           : fmt::format("One chip: every case of {}.csv is compared.", c.kind);
  return fmt::format("Cells are not compared: {}. Compare structure, sides and groups.", c.cells_refused);
}

Json table_json(const TableDifference& t) {
  Json rows = Json::array();
  for (const TableDifference::Row& r : t.rows)
    rows.push_back({{"key", r.key},
                    {"a", number_or_null(r.a)},
                    {"b", number_or_null(r.b)},
                    {"b_minus_a", number_or_null(r.b - r.a)},
                    {"relative_difference", number_or_null(relative(r.a, r.b))}});
  return {{"title", t.title}, {"key_columns", t.key_columns}, {"values", t.value_words}, {"rows", rows}};
}

Json difference_json(const PairedDifference& d) {
  Json moved = Json::array();
  for (const PairedDifference::Moved& m : d.most_moved)
    moved.push_back({{"what", m.what}, {"a", m.a}, {"b", m.b}, {"relative_difference", number_or_null(m.rel_diff)}});
  return {{"count", d.count},
          {"pearson_r", number_or_null(d.pearson_r)},
          {"median_relative_difference", number_or_null(d.median_rel_diff)},
          {"p95_relative_difference", number_or_null(d.p95_rel_diff)},
          {"most_moved", moved}};
}

Json run_json(const std::string& name, const RunHeader& h) {
  return {{"dir", name},
          {"device", h.device_name},
          {"backend", h.backend},
          {"serials", h.serials},
          {"host", h.host},
          {"units", h.units.size()},
          {"timestamp_utc", h.timestamp_utc},
          {"tool_version", h.tool_version}};
}

}  // namespace

std::string comparison_markdown(const RunComparison& c) {
  std::string md = fmt::format("# cumap compare: {} runs\n\n", cell(c.kind));
  md += "| | A | B |\n| --- | --- | --- |\n";
  md += fmt::format("| run | `{}` | `{}` |\n", cell(c.a_name), cell(c.b_name));
  md += fmt::format("| device | {} | {} |\n", cell(device_words(c.a)), cell(device_words(c.b)));
  md += fmt::format("| serial | {} | {} |\n", cell(serial_words(c.a)), cell(serial_words(c.b)));
  md += fmt::format("| host | {} | {} |\n", cell(c.a.host), cell(c.b.host));
  md += fmt::format("| date | {} | {} |\n\n", cell(c.a.timestamp_utc), cell(c.b.timestamp_utc));
  md += chip_sentence(c) + "\n\n";

  md += "## Settings that differ\n\n";
  if (c.settings.empty()) {
    md += "None: both runs measured with the same settings.\n\n";
  } else {
    md += "| setting | A | B |\n| --- | --- | --- |\n";
    for (const SettingDifference& s : c.settings)
      md += fmt::format("| {} | {} | {} |\n", cell(s.name), cell(s.a), cell(s.b));
    md += "\n";
  }

  for (const TableDifference& t : c.tables) {
    if (t.rows.empty()) continue;
    md += fmt::format("## {}\n\n{} of A and of B; B − A in ns and as a share of A.\n\n", t.title,
                      cell(t.value_words));
    std::string header = "|", rule = "|";
    for (const std::string& k : t.key_columns) header += " " + cell(k) + " |", rule += " --- |";
    md += header + " A | B | B − A | B − A (%) |\n" + rule + " ---: | ---: | ---: | ---: |\n";
    for (const TableDifference::Row& r : t.rows) {
      std::string row = "|";
      for (const std::string& k : r.key) row += " " + cell(k) + " |";
      md += row + fmt::format(" {} | {} | {} | {} |\n", value(r.a), value(r.b), signed_value(r.b - r.a),
                              share(relative(r.a, r.b)));
    }
    md += "\n";
  }

  if (!c.sides.sides.empty() || !c.sides.groups.empty()) {
    md += fmt::format("## Sides and groups\n\n");
    if (!c.sides.sides.empty()) {
      md += fmt::format("| side | {0}s in A | {0}s in B |\n| --- | ---: | ---: |\n", c.a.unit_word());
      for (const SidesDifference::Side& s : c.sides.sides)
        md += fmt::format("| {} | {} | {} |\n", cell(s.name), s.units_a, s.units_b);
      md += "\n";
    }
    if (!c.sides.groups.empty()) {
      md += fmt::format("Each group's {}s and the side holding most of them.\n\n", c.a.unit_word());
      md += "| group | A | side in A | B | side in B |\n| --- | ---: | ---: | ---: | ---: |\n";
      for (const SidesDifference::Group& g : c.sides.groups)
        md += fmt::format("| {} | {} | {} | {} | {} |\n", cell(g.name), g.units_a, side_words(g.side_a), g.units_b,
                          side_words(g.side_b));
      md += "\n";
    }
    if (c.chip.same)
      md += c.sides.moved_units.empty()
                ? fmt::format("Every {} is on the same side in both runs.\n\n", c.a.unit_word())
                : fmt::format("On another side in B: {} {}(s), {}.\n\n", c.sides.moved_units.size(), c.a.unit_word(),
                              fmt::join(c.sides.moved_units, ", "));
  }

  md += c.kind == "map" ? "## Cells\n\n" : "## Every case\n\n";
  if (!c.chip.same) {
    md += chip_sentence(c) + "\n\n";
  } else {
    md += "Relative differences are |B − A| / A over the cells (cases) with a value in both.\n\n";
    md += "| file | compared | r | median difference | p95 difference | moved most |\n";
    md += "| --- | ---: | ---: | ---: | ---: | --- |\n";
    for (const FileDifference& f : c.files) {
      if (!f.difference) {
        md += fmt::format("| {} | {} | | | | |\n", cell(f.name), cell(f.why_not));
        continue;
      }
      const PairedDifference& d = *f.difference;
      std::vector<std::string> moved;
      for (std::size_t i = 0; i < d.most_moved.size() && i < 3; ++i) moved.push_back(moved_words(d.most_moved[i]));
      md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", cell(f.name), d.count,
                        std::isfinite(d.pearson_r) ? fmt::format("{:.4f}", d.pearson_r) : "–",
                        unsigned_share(d.median_rel_diff), unsigned_share(d.p95_rel_diff),
                        moved.empty() ? std::string("none") : cell(fmt::format("{}", fmt::join(moved, "; "))));
    }
    md += "\n";
  }

  md += "## Verdict\n\n";
  const std::string limit = fmt::format("{:g} %", 100.0 * c.threshold);
  if (c.alike()) {
    md += fmt::format("Alike within {}: no compared median moved further (exit code 0).\n", limit);
  } else {
    md += fmt::format("Different beyond {} (exit code 1): {} item(s).\n\n", limit, c.beyond_threshold.size());
    for (std::size_t i = 0; i < c.beyond_threshold.size() && i < 30; ++i)
      md += "- " + cell(c.beyond_threshold[i]) + "\n";
    if (c.beyond_threshold.size() > 30)
      md += fmt::format("- and {} more (--format csv lists every one)\n", c.beyond_threshold.size() - 30);
  }
  return md;
}

std::string comparison_csv(const RunComparison& c) {
  std::string out = "section,name,a,b,b_minus_a,relative_difference,pearson_r,p95_relative_difference,count\n";
  const auto text_row = [&](const std::string& section, const std::string& name, const std::string& a,
                            const std::string& b) {
    out += fmt::format("{},{},{},{},,,,,\n", csv_field(section), csv_field(name), csv_field(a), csv_field(b));
  };
  for (const SettingDifference& s : c.settings) text_row("setting", s.name, s.a, s.b);
  for (const TableDifference& t : c.tables)
    for (const TableDifference::Row& r : t.rows) {
      std::vector<std::string> key;
      for (const std::string& k : r.key)
        if (!k.empty()) key.push_back(k);
      out += fmt::format("{},{},{},{},{},{},,,\n", csv_field(t.title),
                         csv_field(fmt::format("{}", fmt::join(key, " / "))), csv_number(r.a), csv_number(r.b),
                         csv_number(r.b - r.a), csv_number(relative(r.a, r.b)));
    }
  for (const SidesDifference::Side& s : c.sides.sides)
    out += fmt::format("side,{},{},{},,,,,\n", csv_field(s.name), s.units_a, s.units_b);
  for (const SidesDifference::Group& g : c.sides.groups)
    text_row("group", g.name, fmt::format("{} units on side {}", g.units_a, side_words(g.side_a)),
             fmt::format("{} units on side {}", g.units_b, side_words(g.side_b)));
  for (const FileDifference& f : c.files) {
    if (!f.difference) {
      text_row("file", f.name, f.why_not, "");
      continue;
    }
    const PairedDifference& d = *f.difference;
    out += fmt::format("file,{},,,,{},{},{},{}\n", csv_field(f.name), csv_number(d.median_rel_diff),
                       csv_number(d.pearson_r), csv_number(d.p95_rel_diff), d.count);
  }
  if (!c.cells_refused.empty()) text_row("cells", "not compared", c.cells_refused, "");
  for (const std::string& why : c.beyond_threshold) text_row("beyond threshold", why, "", "");
  text_row("verdict", c.alike() ? "alike" : "different", fmt::format("threshold {:g} %", 100.0 * c.threshold), "");
  return out;
}

Json comparison_json(const RunComparison& c) {
  Json settings = Json::array(), tables = Json::array(), sides = Json::array(), groups = Json::array(),
       files = Json::array();
  for (const SettingDifference& s : c.settings) settings.push_back({{"name", s.name}, {"a", s.a}, {"b", s.b}});
  for (const TableDifference& t : c.tables) tables.push_back(table_json(t));
  for (const SidesDifference::Side& s : c.sides.sides)
    sides.push_back({{"name", s.name}, {"units_a", s.units_a}, {"units_b", s.units_b}});
  for (const SidesDifference::Group& g : c.sides.groups)
    groups.push_back({{"name", g.name},
                      {"units_a", g.units_a},
                      {"units_b", g.units_b},
                      {"side_a", g.side_a < 0 ? Json() : Json(g.side_a)},
                      {"side_b", g.side_b < 0 ? Json() : Json(g.side_b)}});
  for (const FileDifference& f : c.files)
    files.push_back(f.difference ? Json{{"name", f.name}, {"difference", difference_json(*f.difference)}}
                                 : Json{{"name", f.name}, {"not_compared", f.why_not}});
  return {{"kind", c.kind},
          {"a", run_json(c.a_name, c.a)},
          {"b", run_json(c.b_name, c.b)},
          {"same_chip", c.chip.same},
          {"cells_not_compared", c.cells_refused.empty() ? Json() : Json(c.cells_refused)},
          {"settings_that_differ", settings},
          {"tables", tables},
          {"sides", sides},
          {"groups", groups},
          {"moved_units", c.sides.moved_units},
          {"files", files},
          {"threshold", c.threshold},
          {"alike", c.alike()},
          {"beyond_threshold", c.beyond_threshold}};
}

}  // namespace cumap
