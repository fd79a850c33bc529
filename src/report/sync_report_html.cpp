// report.html of a barrier or contention run: the template (sync_page.html,
// generated into report_page.hpp by CMake) with the run written in as HTML.
// Every text from the run goes through html_text, so a device name or
// command line shows as text and cannot open an element.
#include "report/sync_report_html.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/sync_cases.hpp"
#include "report/report_html.hpp"  // base64
#include "report/report_page.hpp"  // kSyncReportPage, generated from sync_page.html
#include "report/sync_summary_md.hpp"

namespace cumap {
namespace {

std::string html_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  return out;
}

std::string element(std::string_view tag, std::string_view text, std::string_view attributes = "") {
  return fmt::format("<{}{}{}>{}</{}>", tag, attributes.empty() ? "" : " ", attributes, html_text(text), tag);
}

std::string list(const std::vector<std::string>& items) {
  std::string html = "<ul>";
  for (const std::string& item : items) html += element("li", item);
  return html + "</ul>";
}

// The headline a reader looks for first: the cheapest case at the largest k
// measured (every unit of the widest set), as the console line says it.
std::string key_numbers(const SyncSummary& s) {
  const auto [most, fastest] = cheapest_at_largest_k(s.at_every_unit);
  if (!fastest) return "";
  return fmt::format("Cheapest at k = {}: <b>{:.1f} ns {}</b>, {} ({} set, counter {}).", most,
                     fastest->headline_ns(),
                     s.contention() ? "per operation" : s.has_per_barrier ? "per barrier" : "per episode (median)",
                     html_text(sync_construction(*fastest)), html_text(fastest->label.set),
                     html_text(fastest->label.counter_home));
}

std::string table(const SyncSummary& s) {
  const SyncTable t = sync_table(s);
  const auto cls = [&t](std::size_t i) { return t.numeric[i] ? std::string() : std::string("class=\"words\""); };
  std::string html = "<table class=\"cases\">\n<tr>";
  for (std::size_t i = 0; i < t.header.size(); ++i) html += element("th", t.header[i], cls(i));
  html += "</tr>\n";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    html += s.at_every_unit[r].measured() ? "<tr>" : "<tr class=\"missing\">";
    for (std::size_t i = 0; i < t.rows[r].size(); ++i) html += element("td", t.rows[r][i], cls(i));
    html += "</tr>\n";
  }
  return html + "</table>";
}

std::string run_details(const SyncSummary& s) {
  std::string text;
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"command", s.run.command_line},
           {"date", s.run.timestamp_utc},
           {"host", s.run.host},
           {"cumap", s.run.tool_version},
           {"driver", s.run.driver_version},
           {"runtime", s.run.runtime_version}})
    if (!value.empty()) text += key + ": " + value + "\n";
  return element("pre", text);
}

std::string body(const SyncSummary& s, const std::string& png) {
  std::string html;
  const auto add = [&html](const std::string& piece) {
    html += piece;
    html += '\n';
  };
  const std::string unit = s.run.unit_word();
  add(element("h1", fmt::format("{} — {}", s.run.device_name.empty() ? "unknown device" : s.run.device_name,
                                s.contention() ? fmt::format("an atomic when k {}s hit one line", unit)
                                               : fmt::format("a barrier of k {}s", unit))));
  add(element("div", fmt::format("cumap {} · {}", s.command, sync_measured_line(s)), "class=\"sub\""));
  add(fmt::format("<div id=\"key-numbers\">{}</div>", key_numbers(s)));
  if (s.complete) add(element("div", sync_completeness(s), "class=\"note\""));
  else add(element("div", fmt::format("{} The table and the plot show what was measured.", sync_completeness(s)),
                   "class=\"warn\""));
  if (!s.run.caveat.empty()) add(element("div", s.run.caveat, "class=\"warn\""));

  add(element("h2", "At k = every unit of each set"));
  add(table(s));
  add(element("p", sync_table_note(s), "class=\"note\""));

  add(element("h2", "Latency against k"));
  if (png.empty())
    add(element("p", "No case was measured, so there is no plot.", "class=\"note\""));
  else
    add(fmt::format("<img class=\"plot\" alt=\"{}\" src=\"data:image/png;base64,{}\">",
                    html_text(s.plot_name() + ": latency against the number of participants, a panel per set"),
                    base64(png)));
  if (!s.across.empty()) {
    add(element("h2", "Across GPUs"));
    add(list(s.across));
  }
  if (!s.two_level.empty()) {
    add(element("h2", "Two-level against the flag barrier it replaces"));
    add(list(s.two_level));
  }
  if (!s.left_out.empty()) {
    add(element("h2", "Left out"));
    add(list(s.left_out));
  }
  add(element("h2", "Run"));
  add(run_details(s));
  return html;
}

}  // namespace

std::string sync_report_html(const SyncSummary& s, const std::string& png) {
  constexpr std::string_view kTitle = "{{CUMAP_TITLE}}", kBody = "{{CUMAP_BODY}}";
  const std::string_view page = kSyncReportPage;
  const std::size_t title = page.find(kTitle), body_at = page.find(kBody);
  std::string html;
  html.append(page.substr(0, title));
  html += html_text(fmt::format("cumap {}: {}", s.command, s.run.device_name));
  html.append(page.substr(title + kTitle.size(), body_at - title - kTitle.size()));
  html += body(s, png);
  html.append(page.substr(body_at + kBody.size()));
  return html;
}

}  // namespace cumap
