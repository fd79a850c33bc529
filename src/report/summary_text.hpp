#pragma once
// How the map's pages and tables write values: in a markdown table and in
// CSV. summary.md's sections (summary_md.cpp), `cumap summary`'s CSV
// (summary_formats.cpp) and units.csv share these, so a number or a name
// reads the same in every one.
#include <cmath>
#include <optional>
#include <string>

#include <fmt/format.h>

namespace cumap::summary_text {

// A table cell, or any text of a page that comes from outside cumap (a
// device's or host's name): one line, pipes escaped (GitHub ends a cell at
// any |), and <, > and & as HTML entities, so that a name carrying markup
// reads as text wherever the page is rendered, never as HTML.
inline std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

// A command line in a table cell, as code: one line, pipes escaped; markup
// inside a code span is shown as it is. One holding a backtick, which
// would end the span, is written as text (cell).
inline std::string code_cell(const std::string& s) {
  if (s.find('`') != std::string::npos) return cell(s);
  std::string out = "`";
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out + "`";
}

// A number with one decimal, or "–" where it does not exist (none, NaN).
inline std::optional<double> finite(double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; }
inline std::string value(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : "–"; }
inline std::string value(double v) { return value(finite(v)); }
inline std::string range(const std::optional<double>& a, const std::optional<double>& b) {
  return a && b ? fmt::format("{:.1f}–{:.1f}", *a, *b) : "–";
}
inline std::string range(double a, double b) { return range(finite(a), finite(b)); }

inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
inline std::string csv_number(const std::optional<double>& v) { return v ? fmt::format("{:.3f}", *v) : ""; }
inline std::string csv_number(double v) { return csv_number(finite(v)); }

}  // namespace cumap::summary_text
