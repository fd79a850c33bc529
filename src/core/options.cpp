// The map's options in meta.json: written from the option table (to_json)
// and, for --resume, read back from it by one checked reader.
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "core/option_table.hpp"
#include "core/options.hpp"
#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "cumap/options.hpp"

namespace cumap {

nlohmann::json to_json(const Options& o) { return recorded_options(map_option_rows(), kMapCommand, o); }

namespace {

// Reads meta.json's "options" back (options_from_json): each value must have
// the type and range to_json gives it; UsageError naming the key otherwise.
class RecordedOptions {
 public:
  explicit RecordedOptions(const nlohmann::json& j) : j_(j) {}

  const nlohmann::json& at(const std::string& key) const {
    // A key this cumap writes and the file lacks: an earlier cumap wrote
    // it, whose measurements this one would not extend alike.
    if (!j_.contains(key))
      throw UsageError(fmt::format("the option \"{}\" is not recorded: an earlier version of cumap made this run, "
                                   "and this one cannot complete it (measure it again)",
                                   key));
    return j_.at(key);
  }
  [[noreturn]] void refuse(const std::string& key, std::string_view what) const {
    throw UsageError(fmt::format("the option \"{}\" is recorded as {}, not {}", key,
                                 printable_excerpt(j_.at(key).dump(), 60), what));
  }
  bool flag(const std::string& key) const {
    if (!at(key).is_boolean()) refuse(key, "true or false");
    return at(key).get<bool>();
  }
  std::string text(const std::string& key) const {
    if (!at(key).is_string()) refuse(key, "a string");
    return at(key).get<std::string>();
  }
  // A whole number (JSON integer) from `low` to `high`; doubles such as
  // 1e300 are not converted.
  std::int64_t whole(const std::string& key, std::int64_t low, std::int64_t high) const {
    const nlohmann::json& v = at(key);
    const bool in_range = v.is_number_unsigned()  ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(high)
                          : v.is_number_integer() ? v.get<std::int64_t>() >= low && v.get<std::int64_t>() <= high
                                                  : false;
    if (!v.is_number_integer() || !in_range) refuse(key, fmt::format("a whole number from {} to {}", low, high));
    return v.get<std::int64_t>();
  }
  int whole_int(const std::string& key) const {
    return static_cast<int>(whole(key, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  }
  // null: left to the backend.
  std::optional<int> optional_int(const std::string& key) const {
    if (at(key).is_null()) return std::nullopt;
    return whole_int(key);
  }
  double number(const std::string& key) const {
    if (!at(key).is_number()) refuse(key, "a number");
    return at(key).get<double>();
  }
  // One of the enum's values, by its name.
  template <typename Enum>
  Enum named(const std::string& key) const {
    const std::string name = text(key);
    if (const auto* row = names_of<Enum>().find(name)) return row->value;
    refuse(key, said_as_choices(names_of<Enum>().names()));
  }
  // A list of at least one of the enum's values, by their names.
  template <typename Enum>
  std::vector<Enum> named_list(const std::string& key) const {
    const auto& table = names_of<Enum>();
    if (!at(key).is_array() || at(key).empty()) refuse(key, fmt::format("a list of {}s", table.what));
    std::vector<Enum> out;
    for (const nlohmann::json& name : at(key)) {
      if (!name.is_string()) refuse(key, fmt::format("a list of {} names", table.what));
      out.push_back(table.parse(name.get<std::string>()));
    }
    return out;
  }

  // The value of `T` recorded under `key`, as to_json writes a member of that type.
  template <typename T>
  T read(const std::string& key) const {
    if constexpr (std::is_same_v<T, bool>) return flag(key);
    else if constexpr (std::is_same_v<T, int>) return whole_int(key);
    else if constexpr (std::is_same_v<T, double>) return number(key);
    else if constexpr (std::is_same_v<T, std::optional<int>>) return optional_int(key);
    else if constexpr (std::is_same_v<T, std::uint64_t>)
      return static_cast<std::uint64_t>(whole(key, 0, std::numeric_limits<std::int64_t>::max()));
    else if constexpr (std::is_enum_v<T>) return named<T>(key);
    else return T(text(key));  // strings, paths
  }

 private:
  const nlohmann::json& j_;
};

template <typename M>
struct OptionsMember : std::false_type {};
template <typename T>
struct OptionsMember<Member<Options, T>> : std::true_type {
  using type = T;
};

}  // namespace

Options options_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw UsageError("the options are not recorded as an object");
  const RecordedOptions recorded(j);
  Options o;
  nlohmann::json read = nlohmann::json::object();  // the keys read so far (rows may share one)
  for (const OptionRow& row : map_option_rows()) {
    if (row.recorded != Recorded::Compared || read.contains(row.key)) continue;
    const std::string key(row.key);
    read[key] = true;
    std::visit(
        [&](const auto& member) {
          using M = std::decay_t<decltype(member)>;
          if constexpr (std::is_same_v<M, PlacementFlag>) o.placements = recorded.named_list<Placement>(key);
          else if constexpr (OptionsMember<M>::value) o.*(member.field) = recorded.read<typename OptionsMember<M>::type>(key);
          else throw std::logic_error("a map option of another command's options: " + key);
        },
        row.value);
  }
  return o;
}

}  // namespace cumap
