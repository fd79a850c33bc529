// What every row of an option table means to meta.json and to the range
// checks, whatever its member's type.
#include "core/option_table.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "core/enum_names.hpp"
#include "core/options.hpp"
#include "core/printable.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

template <typename T>
constexpr bool kIsOptional = false;
template <typename T>
constexpr bool kIsOptional<std::optional<T>> = true;
template <typename T>
constexpr bool kIsVector = false;
template <typename T>
constexpr bool kIsVector<std::vector<T>> = true;

template <typename T>
const T& field_of(const Member<Options, T>& m, const Options& o, const SyncOptions*) {
  return o.*(m.field);
}
template <typename T>
const T& field_of(const Member<SyncOptions, T>& m, const Options&, const SyncOptions* s) {
  if (s == nullptr) throw std::logic_error("an option of barrier and contention read outside them");
  return s->*(m.field);
}

// A value as meta.json records it: enums by name, paths as text, an unset
// optional (left to the backend) as null.
template <typename T>
nlohmann::json recorded(const T& v) {
  if constexpr (std::is_enum_v<T>) return std::string(names_of<T>().name(v));
  else if constexpr (kIsOptional<T>) return v ? nlohmann::json(*v) : nlohmann::json();
  else if constexpr (kIsVector<T>) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& e : v) list.push_back(recorded(e));
    return list;
  } else if constexpr (std::is_same_v<T, std::filesystem::path>) return v.string();
  else if constexpr (std::is_same_v<T, KSweep>)
    return {{"values", v.values}, {"every_unit", v.every_unit}, {"doubling", v.doubling}};
  else return v;
}

nlohmann::json recorded(const OptionValue& value, const Options& o, const SyncOptions* s) {
  return std::visit(
      [&](const auto& v) -> nlohmann::json {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, PlacementFlag>) return recorded(o.placements);
        else return recorded(field_of(v, o, s));
      },
      value);
}

bool empty_value(const nlohmann::json& v) {
  return v.is_string() ? v.get_ref<const std::string&>().empty() : v.empty();  // null, [] and {} are empty
}

// The range check of one row: numbers against its range, text against its words.
void check_range(const OptionRow& row, const Options& o, const SyncOptions* s) {
  std::visit(
      [&](const auto& member) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(member)>, PlacementFlag>) {
          using T = std::decay_t<decltype(field_of(member, o, s))>;
          const T& v = field_of(member, o, s);
          std::optional<std::string> problem;
          if constexpr (std::is_same_v<T, std::optional<int>>) {
            if (v) problem = row.range.problem(row.flag(), *v);
          } else if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            problem = row.range.problem(row.flag(), v);
          } else if constexpr (std::is_same_v<T, std::string>) {
            if (!row.words.empty() && std::find(row.words.begin(), row.words.end(), v) == row.words.end())
              problem = fmt::format("{} '{}' is not {}", row.flag(), printable_excerpt(v),
                                    said_as_choices({row.words.begin(), row.words.end()}));
          }
          if (problem) throw UsageError(*problem);
        }
      },
      row.value);
}

}  // namespace

bool Range::holds(std::int64_t value) const {
  if (unset == value) return true;
  const bool above = above_low ? value > low : value >= low;
  return above && value <= high && value % step == 0;
}

bool Range::holds(std::uint64_t value) const {
  return value <= static_cast<std::uint64_t>(kNoHigh) && holds(static_cast<std::int64_t>(value));
}

bool Range::holds(double value) const {
  if (!std::isfinite(value)) return false;
  const bool above = above_low ? value > static_cast<double>(low) : value >= static_cast<double>(low);
  return above && value <= static_cast<double>(high) &&
         (step == 1 || std::fmod(value, static_cast<double>(step)) == 0.0);
}

std::string Range::refusal(std::string_view flag, std::string_view value) const {
  const std::string most = high_words.empty() ? std::to_string(high) : std::string(high_words);
  std::string rule;
  if (step > 1)
    rule = low <= 0 ? fmt::format("be a multiple of {} and at most {}", step, most)
                    : fmt::format("be a multiple of {} from {} to {}", step, low, most);
  else if (above_low) rule = fmt::format("be more than {} and at most {}", low, most);
  else if (high == kNoHigh) rule = low == 0 ? "not be negative" : fmt::format("be at least {}", low);
  else rule = fmt::format("be from {} to {}", low, most);
  std::string text = fmt::format("{} must {}", flag, rule);
  if (!reason.empty()) text += fmt::format(" {}", reason);
  // A rule that ends in parentheses takes the value after a semicolon.
  text += rule.ends_with(')') ? fmt::format("; got {}", value) : fmt::format(" (got {})", value);
  if (!advice.empty()) text += fmt::format("; {}", advice);
  return text;
}

OptionRow option(std::string_view flags, std::string_view key, OptionValue value, std::string help) {
  OptionRow row;
  row.flags = flags;
  row.key = key;
  row.value = value;
  row.help = std::move(help);
  return row;
}

std::string_view OptionRow::flag() const {
  std::string_view names = flags;
  if (names.starts_with('!')) names.remove_prefix(1);
  return names.substr(0, names.find(','));
}

nlohmann::json recorded_options(std::span<const OptionRow> rows, OptionGroups groups, const Options& options,
                                const SyncOptions* sync) {
  nlohmann::json j = nlohmann::json::object();
  for (const OptionRow& row : rows) {
    if (!groups.contains(row.group) || row.recorded == Recorded::No || j.contains(row.key)) continue;
    nlohmann::json value = recorded(row.value, options, sync);
    if (row.recorded == Recorded::WhenGiven && empty_value(value)) continue;
    j[std::string(row.key)] = std::move(value);
  }
  return j;
}

void check_ranges(std::span<const OptionRow> rows, OptionGroups groups, const Options& options,
                  const SyncOptions* sync) {
  for (const OptionRow& row : rows)
    if (groups.contains(row.group) && !row.flags.empty()) check_range(row, options, sync);
}

bool resume_ignores(std::string_view key) {
  const auto rows = map_option_rows();
  return std::any_of(rows.begin(), rows.end(),
                     [&](const OptionRow& row) { return row.key == key && row.recorded != Recorded::Compared; });
}

}  // namespace cumap
