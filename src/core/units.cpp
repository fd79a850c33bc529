// The --units syntax: comma-separated ids and inclusive ranges, "0-7,16,32-47".
#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "cumap/plan.hpp"
#include "core/printable.hpp"
#include "core/units.hpp"

namespace cumap {
namespace {

std::string_view trim(std::string_view s) {
  const auto not_space = [](char c) { return c != ' ' && c != '\t' && c != '\n' && c != '\r'; };
  while (!s.empty() && !not_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && !not_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string valid_range(int count, const ListWords& w) {
  if (count <= 0) return fmt::format("{} has no {}s", w.owner, w.item);
  if (count == 1) return fmt::format("{} has {} 0", w.owner, w.item);
  return fmt::format("{} has {}s 0-{}", w.owner, w.item, count - 1);
}

// One id of a token; `token` is only for the message.
int parse_id(std::string_view text, std::string_view token, int count, const ListWords& w) {
  text = trim(text);
  if (text.empty())
    throw UsageError(fmt::format("{}: '{}' is not a {} id or range", w.option, printable_excerpt(token), w.item));
  if (text.front() == '-') throw UsageError(fmt::format("{}: '{}' is negative", w.option, printable_excerpt(token)));
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range || (ec == std::errc{} && end == text.data() + text.size() &&
                                               value >= count)) {
    throw UsageError(fmt::format("{}: {} is out of range: {}", w.option, printable_excerpt(text), valid_range(count, w)));
  }
  if (ec != std::errc{} || end != text.data() + text.size())
    throw UsageError(fmt::format("{}: '{}' is not a {} id or range", w.option, printable_excerpt(token), w.item));
  return static_cast<int>(value);
}

// A whole number of at least 0, "+" allowed; nullopt for anything else.
std::optional<int> non_negative(std::string_view s) {
  if (s.starts_with('+')) s.remove_prefix(1);
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

// "g<device>.<rest>" split into the device and the rest; nullopt when `text`
// does not have that form.
struct DevicePrefix {
  int device;
  std::string_view rest;
};
std::optional<DevicePrefix> device_prefix(std::string_view text) {
  if (!text.starts_with('g')) return std::nullopt;
  const std::size_t dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const auto device = non_negative(text.substr(1, dot - 1));
  if (!device) return std::nullopt;
  return DevicePrefix{*device, text.substr(dot + 1)};
}

// The comma-separated entries of `spec`, trimmed; empty ones kept, for the
// caller to name.
std::vector<std::string_view> comma_entries(std::string_view spec) {
  std::vector<std::string_view> entries;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    entries.push_back(trim(spec.substr(start, comma - start)));
    start = comma + 1;
  }
  return entries;
}

std::vector<int> sorted_unique(std::vector<int> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace

std::vector<int> parse_unit_list(std::string_view spec, int unit_count, const ListWords& words) {
  if (trim(spec).empty()) throw UsageError(fmt::format("{}: the {} list is empty", words.option, words.item));
  std::vector<int> units;
  for (const std::string_view token : comma_entries(spec)) {
    if (token.empty())
      throw UsageError(fmt::format("{}: empty entry in '{}'", words.option, printable_excerpt(spec)));
    if (token.front() == '-') throw UsageError(fmt::format("{}: '{}' is negative", words.option, printable_excerpt(token)));
    const std::size_t dash = token.find('-');
    if (dash == std::string_view::npos) {
      units.push_back(parse_id(token, token, unit_count, words));
      continue;
    }
    const int first = parse_id(token.substr(0, dash), token, unit_count, words);
    const int last = parse_id(token.substr(dash + 1), token, unit_count, words);
    if (last < first)
      throw UsageError(fmt::format("{}: '{}' is a reversed range", words.option, printable_excerpt(token)));
    for (int u = first; u <= last; ++u) units.push_back(u);
  }
  return sorted_unique(std::move(units));
}

std::optional<int> first_repeated_id(std::string_view spec) {
  std::vector<std::pair<int, int>> seen;  // inclusive ranges, in order
  for (const std::string_view token : comma_entries(spec)) {
    const std::size_t dash = token.find('-', 1);
    const auto first = non_negative(trim(token.substr(0, dash)));
    const auto last = dash == std::string_view::npos ? first : non_negative(trim(token.substr(dash + 1)));
    if (!first || !last || *last < *first) continue;
    std::optional<int> twice;  // the lowest id this entry names again
    for (const auto& [a, b] : seen)
      if (*first <= b && a <= *last) twice = std::min(twice.value_or(*last), std::max(a, *first));
    if (twice) return twice;
    seen.emplace_back(*first, *last);
  }
  return std::nullopt;
}

std::vector<int> parse_device_unit_list(std::string_view spec, const std::map<int, int>& unit_count_by_device) {
  if (trim(spec).empty()) throw UsageError("--units: the unit list is empty");
  std::vector<int> ids;
  for (const std::string_view token : comma_entries(spec)) {
    std::string_view units = token;
    std::vector<int> devices;
    if (!token.empty() && token.front() == 'g') {
      const auto prefix = device_prefix(token);
      if (!prefix) throw UsageError(fmt::format("--units: '{}' is not g<gpu>.<units>", printable_excerpt(token)));
      if (!unit_count_by_device.contains(prefix->device))
        throw UsageError(fmt::format("--units: '{}' names GPU {}, which this map does not measure",
                                     printable_excerpt(token), prefix->device));
      devices.push_back(prefix->device);
      units = prefix->rest;
    } else {
      for (const auto& [device, count] : unit_count_by_device) devices.push_back(device);
    }
    for (int device : devices)
      for (int u : parse_unit_list(units, unit_count_by_device.at(device)))
        ids.push_back(unit_id(UnitRef{device, u}));
  }
  return sorted_unique(std::move(ids));
}

bool ids_span_devices(const std::vector<int>& ids) {
  return std::any_of(ids.begin(), ids.end(), [](int id) { return id >= kDeviceUnitStride; });
}

std::string format_unit_id(int id, bool across) {
  if (!across) return fmt::format("{}", id);
  const UnitRef u = unit_ref(id, 0);
  return fmt::format("g{}.{}", u.device, u.unit);
}

std::optional<int> parse_unit_id(std::string_view text) {
  text = trim(text);
  if (!text.starts_with('g')) return non_negative(text);
  const auto prefix = device_prefix(text);
  if (!prefix) return std::nullopt;
  const auto unit = non_negative(prefix->rest);
  if (!unit || *unit >= kDeviceUnitStride || prefix->device > 20000) return std::nullopt;
  return unit_id(UnitRef{prefix->device, *unit});
}

std::string format_unit_list(const std::vector<int>& input) {
  const std::vector<int> units = sorted_unique(input);
  std::string out;
  for (std::size_t i = 0; i < units.size();) {
    std::size_t j = i;
    while (j + 1 < units.size() && units[j + 1] == units[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", units[i]) : fmt::format("{}-{}", units[i], units[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace cumap
