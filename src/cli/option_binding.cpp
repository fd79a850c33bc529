#include "cli/option_binding.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "cli/option_checks.hpp"
#include "cli/option_words.hpp"
#include "core/options.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {
namespace {

template <typename T>
constexpr bool kIsVector = false;
template <typename T>
constexpr bool kIsVector<std::vector<T>> = true;

std::vector<std::string> as_strings(const std::vector<std::string_view>& names) {
  return {names.begin(), names.end()};
}

// --help lists a single word's choices alphabetically.
std::vector<std::string> sorted(std::vector<std::string> words) {
  std::sort(words.begin(), words.end());
  return words;
}

CLI::Option* with_default(CLI::Option* option, const OptionRow& row) {
  return row.default_shown == DefaultShown::Value ? option->capture_default_str() : option;
}

}  // namespace

BoundOptions::BoundOptions(CLI::App& app, std::span<const OptionRow> rows, OptionGroups groups, Options& options,
                           SyncOptions* sync)
    : app_(app), options_(options), sync_(sync) {
  for (const OptionRow& row : rows) {
    if (!groups.contains(row.group) || row.flags.empty()) continue;
    CLI::Option* option = std::visit([&](const auto& value) { return bind(row, value); }, row.value);
    bound_.push_back({&row, option});
  }
}

template <typename Owner, typename T>
T& BoundOptions::target(const Member<Owner, T>& member) {
  if constexpr (std::is_same_v<Owner, Options>) {
    return options_.*(member.field);
  } else {
    if (sync_ == nullptr) throw std::logic_error("an option of barrier and contention bound outside them");
    return sync_->*(member.field);
  }
}

template <typename Owner, typename T>
CLI::Option* BoundOptions::bind(const OptionRow& row, const Member<Owner, T>& member) {
  T& value = target(member);
  const std::string flags(row.flags);
  const std::string flag(row.flag());
  if constexpr (std::is_same_v<T, bool>) {
    return app_.add_flag(flags, value, row.help);
  } else if constexpr (std::is_enum_v<T>) {
    std::string& word = words_.emplace_back(names_of<T>().name(value));
    conversions_.push_back([&value, &word] { value = names_of<T>().parse(word); });
    return with_default(
        app_.add_option(flags, word, row.help)->check(CLI::IsMember(sorted(as_strings(names_of<T>().names())))), row);
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {  // a byte offset
    std::string& word = words_.emplace_back(std::to_string(value));
    conversions_.push_back([&value, &word] { value = parse_flag_offset(word); });
    return with_default(app_.add_option(flags, word, row.help), row);
  } else if constexpr (kIsVector<T>) {  // names, comma-separated, each once; --help lists them in the table's order
    using Enum = typename T::value_type;
    std::vector<std::string>& words = lists_.emplace_back();
    CLI::Option* option = app_.add_option(flags, words, row.help)
                              ->delimiter(',')
                              ->check(CLI::IsMember(as_strings(names_of<Enum>().names())));
    conversions_.push_back([&value, &words, option, flag] {
      if (option->count() > 0) value = distinct_names<Enum>(words, flag);
    });
    return with_default(option, row);
  } else if constexpr (std::is_same_v<T, KSweep>) {
    std::string& word = words_.emplace_back();
    CLI::Option* option = app_.add_option(flags, word, row.help);
    conversions_.push_back([&value, &word, option] {
      if (option->count() > 0) value = parse_k(word);
    });
    return option;
  } else {  // numbers, optional numbers, text and paths: CLI11's own
    CLI::Option* option = app_.add_option(flags, value, row.help);
    if constexpr (std::is_same_v<T, std::string>)
      if (!row.words.empty()) option->check(CLI::IsMember(sorted({row.words.begin(), row.words.end()})));
    return with_default(option, row);
  }
}

CLI::Option* BoundOptions::bind(const OptionRow& row, const PlacementFlag& flag) {
  return app_.add_flag(std::string(row.flags), placement_flags_[flag.placement], row.help);
}

// --same-line or --split-line alone is the only placement; both, or
// neither, keep both; --cross-home adds its own.
void BoundOptions::place_flags() {
  const bool same = placement_flags_[Placement::SameLine], split = placement_flags_[Placement::SplitLine];
  if (same != split) options_.placements = {same ? Placement::SameLine : Placement::SplitLine};
  if (placement_flags_[Placement::CrossHome]) {
    options_.cross_home = true;
    options_.placements.push_back(Placement::CrossHome);
  }
}

void BoundOptions::refuse_typed_unset(const Bound& b) {
  std::visit(
      [&](const auto& member) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(member)>, PlacementFlag>) {
          const auto& value = target(member);
          if constexpr (std::is_same_v<std::decay_t<decltype(value)>, int>)
            if (const auto problem = b.row->range.problem(b.row->flag(), value, true)) throw UsageError(*problem);
        }
      },
      b.row->value);
}

void BoundOptions::apply() {
  if (applied_) return;  // the placements would be added twice
  applied_ = true;
  for (const auto& convert : conversions_) convert();
  if (!placement_flags_.empty()) place_flags();
  for (const Bound& b : bound_)
    if (b.row->range.unset && b.option->count() > 0) refuse_typed_unset(b);
}

std::map<std::string, std::string> BoundOptions::typed_compared() const {
  std::map<std::string, std::string> typed;
  for (const Bound& b : bound_)
    if (b.row->recorded == Recorded::Compared && b.option->count() > 0)
      typed.emplace(std::string(b.row->flag()), std::string(b.row->key));
  return typed;
}

void apply_device_options(const CLI::App& app, const CLI::App& sub, BoundOptions& bound, const Options& options) {
  reject_top_level_options(app, sub.get_name(), {});
  bound.apply();
  check_device_options(options, sub);
}

CLI::Option* add_word_option(CLI::App& app, const std::string& name, std::string& target,
                             std::vector<std::string> words, const std::string& help) {
  return app.add_option(name, target, help)->check(CLI::IsMember(sorted(std::move(words))))->capture_default_str();
}

CLI::App* add_run_reader(CLI::App& app, const std::string& name, const std::string& description,
                         std::filesystem::path& dir, const std::string& dir_help, std::string& format,
                         const std::string& format_help) {
  CLI::App* sub = app.add_subcommand(name, description);
  sub->add_option("dir", dir, dir_help)->required();
  add_word_option(*sub, "--format", format, {"md", "csv", "json"}, format_help);
  return sub;
}

void decimal_numbers_only(CLI::App& app) {
  const CLI::Validator whole(
      [](std::string& text) {
        std::string problem = decimal_number_problem(text, false);
        // CLI11 converts with base 0, where a leading 0 means octal.
        const std::size_t sign = text.starts_with('-') ? 1 : 0;
        const std::size_t digits = text.find_first_not_of('0', sign);
        if (problem.empty()) text.erase(sign, (digits == std::string::npos ? text.size() - 1 : digits) - sign);
        return problem;
      },
      "");
  const CLI::Validator fractional([](std::string& text) { return decimal_number_problem(text, true); }, "");
  for (CLI::Option* option : app.get_options()) {
    if (option->get_expected_min() < 1) continue;  // flags
    const std::string type = option->get_type_name();
    // transform, not check: CLI11 hands a check a copy, and `whole` rewrites the text.
    if (type == "INT" || type == "UINT") option->transform(whole);
    else if (type == "FLOAT") option->transform(fractional);
  }
}

}  // namespace cumap::cli
