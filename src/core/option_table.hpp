#pragma once
// The options of a map, and of barrier and contention, each a row of a
// table: its flags, the key meta.json records it under, the member it sets,
// its range, how --help shows its default, and its help. The command line
// registers a command's rows (src/cli/option_binding.hpp), to_json writes
// them into meta.json's "options", --resume reads them back
// (options_from_json) and compares those the user typed, and the ranges
// are checked from them: adding an option is adding its member and a row.
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/sync_options.hpp"
#include "cumap/options.hpp"
#include "cumap/sync.hpp"

namespace cumap {

// The member of Options (or, for barrier and contention, of SyncOptions) a
// row sets; its type says how the option is typed, recorded and read back.
template <typename Owner, typename T>
struct Member {
  T Owner::*field;
};

// --same-line, --split-line, --cross-home: where the flags live. Given
// alone, --same-line or --split-line is the only placement (both, or
// neither, keep both); --cross-home adds its own. Recorded together as the
// list of placements.
struct PlacementFlag {
  Placement placement;
};

// Every kind of member a row may set. The command line binds numbers, text
// and paths as CLI11 reads them, and reads enums (by their names), the byte
// offset (uint64_t), lists of names and --k (KSweep) as words it converts;
// meta.json records enums by name and an unset optional as null. An option
// of a type not here needs its alternative, and a case in those four uses.
using OptionValue =
    std::variant<Member<Options, bool>, Member<Options, int>, Member<Options, double>, Member<Options, std::string>,
                 Member<Options, std::filesystem::path>, Member<Options, std::optional<int>>,
                 Member<Options, std::uint64_t>, Member<Options, BackendKind>, Member<Options, HipUnit>,
                 Member<Options, FlagOn>, Member<Options, ScheduleKind>, Member<Options, Path>, Member<Options, Probe>,
                 Member<Options, UnitOrder>, PlacementFlag, Member<SyncOptions, int>,
                 Member<SyncOptions, std::optional<int>>, Member<SyncOptions, std::vector<BarrierImpl>>,
                 Member<SyncOptions, std::vector<ContentionOp>>, Member<SyncOptions, std::vector<ParticipantSet>>,
                 Member<SyncOptions, std::vector<CounterHome>>, Member<SyncOptions, KSweep>>;

// The values a number may take, and how a refusal says so:
// "{flag} must {rule}[ {reason}] (got {value})[; {advice}]". Made by
// at_least, from_to or more_than_at_most, then said more precisely.
struct Range {
  static constexpr std::int64_t kNoLow = std::numeric_limits<std::int64_t>::min();
  static constexpr std::int64_t kNoHigh = std::numeric_limits<std::int64_t>::max();

  std::int64_t low = kNoLow;
  std::int64_t high = kNoHigh;
  bool above_low = false;  // more than `low`, not at least (a duration)
  std::int64_t step = 1;   // the value is a multiple of it
  std::string_view high_words;  // how the rule says `high`: "1 GiB", "3600000 (an hour)"
  std::string_view reason;      // after the rule: "for a counter and a flag line"
  std::string_view advice;      // after the value: "leave it out for the backend's choice"
  // A value that stands for "not given" (the backend decides): accepted as
  // recorded, refused when typed.
  std::optional<std::int64_t> unset;

  // A copy with one thing changed. Defined before its callers: clang 14
  // cannot evaluate a member template defined later in the class in a
  // constant expression (kWaitMs below).
 private:
  template <typename Change>
  constexpr Range with(Change change) const {
    Range r = *this;
    change(r);
    return r;
  }

 public:
  constexpr Range in_steps_of(std::int64_t s) const { return with([&](Range& r) { r.step = s; }); }
  constexpr Range with_high_said(std::string_view words) const {
    return with([&](Range& r) { r.high_words = words; });
  }
  constexpr Range with_reason(std::string_view why) const { return with([&](Range& r) { r.reason = why; }); }
  constexpr Range with_advice(std::string_view what) const { return with([&](Range& r) { r.advice = what; }); }
  constexpr Range unset_by(std::int64_t value) const { return with([&](Range& r) { r.unset = value; }); }

  bool holds(std::int64_t value) const;  // `unset` included
  bool holds(std::uint64_t value) const;
  bool holds(double value) const;  // finite only
  // The refusal of `value` as `flag`, recorded or (`typed`) typed; nullopt
  // when it is in range.
  template <typename T>
  std::optional<std::string> problem(std::string_view flag, T value, bool typed = false) const {
    bool ok = false;
    if constexpr (std::is_floating_point_v<T>) ok = holds(static_cast<double>(value));
    else if constexpr (std::is_unsigned_v<T>) ok = holds(static_cast<std::uint64_t>(value));
    else ok = holds(static_cast<std::int64_t>(value)) && !(typed && unset == static_cast<std::int64_t>(value));
    if (ok) return std::nullopt;
    return refusal(flag, fmt::format("{}", value));
  }
  std::string refusal(std::string_view flag, std::string_view value) const;

};

constexpr Range at_least(std::int64_t low) {
  Range r;
  r.low = low;
  return r;
}
constexpr Range from_to(std::int64_t low, std::int64_t high) {
  Range r = at_least(low);
  r.high = high;
  return r;
}
constexpr Range more_than_at_most(std::int64_t low, std::int64_t high) {
  Range r = from_to(low, high);
  r.above_low = true;
  return r;
}
// A budget of waiting in milliseconds: chrono arithmetic on nanoseconds
// overflows near 9.2e12 ms, and a wait longer than an hour is a typo.
inline constexpr Range kWaitMs = more_than_at_most(0, 3600000).with_high_said("3600000 (an hour)");

// Which commands take a row: device rows every command that opens a device,
// home-discovery rows those that find homes (a map, homes, barrier,
// contention), the others one command (Sync: both barrier and contention).
enum class OptionGroup { Device, HomeDiscovery, Map, Barrier, Contention, Sync };

// The groups of rows one command takes.
class OptionGroups {
 public:
  constexpr OptionGroups(std::initializer_list<OptionGroup> groups) {
    for (OptionGroup g : groups) bits_ |= bit(g);
  }
  constexpr bool contains(OptionGroup g) const { return (bits_ & bit(g)) != 0; }

 private:
  static constexpr unsigned bit(OptionGroup g) { return 1u << static_cast<unsigned>(g); }
  unsigned bits_ = 0;
};

inline constexpr OptionGroups kDeviceCommand{OptionGroup::Device};  // topology, check-coherence
inline constexpr OptionGroups kHomesCommand{OptionGroup::Device, OptionGroup::HomeDiscovery};
inline constexpr OptionGroups kMapCommand{OptionGroup::Device, OptionGroup::HomeDiscovery, OptionGroup::Map};
inline constexpr OptionGroups kBarrierCommand{OptionGroup::Device, OptionGroup::HomeDiscovery, OptionGroup::Barrier,
                                              OptionGroup::Sync};
inline constexpr OptionGroups kContentionCommand{OptionGroup::Device, OptionGroup::HomeDiscovery,
                                                 OptionGroup::Contention, OptionGroup::Sync};

// What meta.json holds of an option, and what --resume does with it.
enum class Recorded {
  No,         // not recorded
  Written,    // recorded; --resume neither reads nor compares it (where and how loudly)
  WhenGiven,  // recorded where it is not empty
  Compared,   // recorded; --resume reads it back and compares what was typed with it
};

// How --help shows a default: CLI11's "=VALUE" from the member as it is when
// registered, or in the help's own words where it has any ("(default: the
// backend's choice: ...)"). Flags show none.
enum class DefaultShown { Value, InHelp };

struct OptionRow {
  // CLI11's names: "--lines-per-class,--rotating-count" (the first is the
  // flag messages name), "!--no-line-correction" (a flag that sets false);
  // empty: recorded only, never typed.
  std::string_view flags;
  std::string_view key;  // in meta.json's "options"
  OptionValue value;
  std::string help;
  OptionGroup group = OptionGroup::Map;
  Recorded recorded = Recorded::Compared;
  Range range;
  std::span<const std::string_view> words;  // a text option: the only words it takes
  DefaultShown default_shown = DefaultShown::Value;

  // "--lines-per-class": the first of `flags`, the name messages use.
  std::string_view flag() const;

  // The row said more precisely (option() makes it).
  OptionRow in(OptionGroup g) const { return with([&](OptionRow& r) { r.group = g; }); }
  OptionRow recorded_as(Recorded how) const { return with([&](OptionRow& r) { r.recorded = how; }); }
  OptionRow within(Range values) const { return with([&](OptionRow& r) { r.range = values; }); }
  OptionRow one_of(std::span<const std::string_view> allowed) const {
    return with([&](OptionRow& r) { r.words = allowed; });
  }
  OptionRow default_in_help() const { return with([&](OptionRow& r) { r.default_shown = DefaultShown::InHelp; }); }
  OptionRow with_help(std::string text) const { return with([&](OptionRow& r) { r.help = std::move(text); }); }

 private:
  template <typename Change>
  OptionRow with(Change change) const {
    OptionRow r = *this;
    change(r);
    return r;
  }
};

// A row of the map's group (OptionRow's calls say the rest): an option
// setting `member` (or placing the flags), recorded under `key` and
// compared by --resume.
OptionRow option(std::string_view flags, std::string_view key, OptionValue value, std::string help);
template <typename Owner, typename T>
OptionRow option(std::string_view flags, std::string_view key, T Owner::*member, std::string help) {
  return option(flags, key, Member<Owner, T>{member}, std::move(help));
}
// A member meta.json records and no flag sets.
template <typename T>
OptionRow recorded_only(std::string_view key, T Options::*member) {
  return option("", key, Member<Options, T>{member}, "");
}

// The map's options (and those `cumap homes`, `topology` and
// `check-coherence` share with it), in --help's order.
std::span<const OptionRow> map_option_rows();
// `cumap barrier` and `cumap contention`: the map's device and home rows
// they share (as they record them), then their own; --help's order.
std::span<const OptionRow> sync_option_rows();

// The options' values as meta.json records them, each row's under its key
// (rows sharing a key record it once). `sync` is needed by rows of
// SyncOptions members only.
nlohmann::json recorded_options(std::span<const OptionRow> rows, OptionGroups groups,
                                const Options& options, const SyncOptions* sync = nullptr);

// UsageError for the first value out of its row's range (or not one of its
// words): the checks that need no other option.
void check_ranges(std::span<const OptionRow> rows, OptionGroups groups, const Options& options,
                  const SyncOptions* sync = nullptr);

// A key meta.json holds that --resume does not compare (--out, --quiet, --resume).
bool resume_ignores(std::string_view key);

}  // namespace cumap
