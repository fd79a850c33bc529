#pragma once
// How the map summaries write values: in a markdown table and in CSV.
// summary.md's sections (run_summary.cpp, across_gpus_summary.cpp) and
// their CSV share these, so a number reads the same in every section.
#include <optional>
#include <string>

#include <fmt/format.h>

namespace cumap::summary_text {

// A table cell: one line, pipes escaped (GitHub ends a cell at any |).
inline std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

inline std::string value(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : "–"; }
inline std::string range(const std::optional<double>& a, const std::optional<double>& b) {
  return a && b ? fmt::format("{:.1f}–{:.1f}", *a, *b) : "–";
}

inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
inline std::string csv_number(const std::optional<double>& v) { return v ? fmt::format("{:.3f}", *v) : ""; }

}  // namespace cumap::summary_text
