// The option tables drive every use of an option: each row's flag parses
// and sets its member, the value is recorded under the row's key, reads
// back through options_from_json, and --resume compares it when typed; its
// range refuses a value outside it. Each enum's table names every value once.
#include <map>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "cli/command_line.hpp"
#include "cli/resume_check.hpp"
#include "core/option_table.hpp"
#include "core/options.hpp"
#include "core/sync_options.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

template <typename T>
constexpr bool kIsVector = false;
template <typename T>
constexpr bool kIsVector<std::vector<T>> = true;

cli::Command parse(std::vector<std::string> args) {
  args.insert(args.begin(), "cumap");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return cli::parse_command_line(static_cast<int>(argv.size()), argv.data());
}

template <typename Owner, typename T>
const T& field(const Member<Owner, T>& m, const Options& o, const SyncOptions& s) {
  if constexpr (std::is_same_v<Owner, Options>) return o.*(m.field);
  else return s.*(m.field);
}

// What to type after a row's flag: a value other than its default (as
// `o` and `s` hold it) that its range takes; nothing for a flag.
std::vector<std::string> other_value(const OptionRow& row, const Options& o, const SyncOptions& s) {
  return std::visit(
      [&](const auto& member) -> std::vector<std::string> {
        if constexpr (std::is_same_v<std::decay_t<decltype(member)>, PlacementFlag>) {
          return {};
        } else {
          using T = std::decay_t<decltype(field(member, o, s))>;
          const T& value = field(member, o, s);
          if constexpr (std::is_same_v<T, bool>) return {};
          else if constexpr (std::is_enum_v<T>) {
            for (std::string_view name : names_of<T>().names())
              if (name != names_of<T>().name(value)) return {std::string(name)};
            return {};
          } else if constexpr (kIsVector<T>) return {std::string(names_of<typename T::value_type>().names().front())};
          else if constexpr (std::is_same_v<T, KSweep>) return {"2"};
          else if constexpr (std::is_same_v<T, std::optional<int>>) return {"5"};
          else if constexpr (std::is_same_v<T, std::string>) {
            for (std::string_view word : row.words)
              if (word != value) return {std::string(word)};
            return {"0,1"};  // a unit list, a GPU list
          } else if constexpr (std::is_same_v<T, std::filesystem::path>) return {"D"};  // --resume's directory too
          else return {fmt::format("{}", value + static_cast<T>(row.range.step))};
        }
      },
      row.value);
}

// Whether a parsed command's member of `row` differs from the default's.
bool member_differs(const OptionRow& row, const Options& o, const SyncOptions& s, const Options& default_o,
                    const SyncOptions& default_s) {
  return std::visit(
      [&](const auto& member) {
        if constexpr (std::is_same_v<std::decay_t<decltype(member)>, PlacementFlag>) {
          return o.placements != default_o.placements;
        } else {
          using T = std::decay_t<decltype(field(member, o, s))>;
          if constexpr (std::is_same_v<T, KSweep>)
            return field(member, o, s).values != field(member, default_o, default_s).values;
          else return field(member, o, s) != field(member, default_o, default_s);
        }
      },
      row.value);
}

nlohmann::json meta_of(const Options& o) { return {{"options", to_json(o)}}; }

TEST(OptionTable, EveryMapRowDrivesParsingRecordingReadingBackAndResume) {
  const Options defaults;
  const SyncOptions no_sync;
  const nlohmann::json default_options = to_json(defaults);
  for (const OptionRow& row : map_option_rows()) {
    if (row.flags.empty()) continue;
    const std::string flag(row.flag()), key(row.key);
    SCOPED_TRACE(flag);
    // With --resume the earlier run's options are checked against what was
    // typed, and the parser says which were typed.
    std::vector<std::string> args{"--resume", "D"};
    if (flag != "--resume") {
      args.push_back(flag);
      for (const std::string& v : other_value(row, defaults, no_sync)) args.push_back(v);
    }
    const cli::Command command = parse(args);
    ASSERT_TRUE(std::holds_alternative<cli::MapCommand>(command));
    const cli::MapCommand& map = std::get<cli::MapCommand>(command);
    EXPECT_TRUE(member_differs(row, map.options, no_sync, defaults, no_sync)) << "the flag set nothing";

    const nlohmann::json recorded = to_json(map.options);
    EXPECT_EQ(recorded.contains(key), row.recorded != Recorded::No) << key;
    if (row.recorded != Recorded::No) {
      EXPECT_NE(recorded[key], default_options[key]) << key;
    }

    const bool compared = row.recorded == Recorded::Compared;
    EXPECT_EQ(map.typed.contains(flag) && map.typed.at(flag) == key, compared);
    if (!compared) continue;
    EXPECT_EQ(to_json(options_from_json(recorded))[key], recorded[key]) << "read back";
    const auto typed = first_typed_difference(meta_of(defaults), map.options, map.typed);
    ASSERT_TRUE(typed) << "--resume did not compare it";
    EXPECT_EQ(typed->rfind(flag + ": the earlier run used ", 0), 0u) << *typed;
    EXPECT_TRUE(first_option_difference(meta_of(defaults), map.options));
  }
}

TEST(OptionTable, OptionsReadBackAsRecorded) {
  Options o;
  o.placements = {Placement::SplitLine, Placement::CrossHome};
  o.cross_home = true;
  o.backend = BackendKind::Hip;
  o.hip_unit = HipUnit::Wgp;
  o.iters = 7;
  o.lines_per_class = 3;
  o.flag_offset = 4096;
  o.check_max_rel_diff = 0.25;
  o.colormap = "magma";
  const Options back = options_from_json(to_json(o));
  EXPECT_EQ(first_option_difference(meta_of(o), back), std::nullopt);
  EXPECT_EQ(back.placements, o.placements);
  EXPECT_EQ(back.hip_unit, HipUnit::Wgp);
  EXPECT_EQ(back.lines_per_class, 3);
  EXPECT_DOUBLE_EQ(back.check_max_rel_diff, 0.25);
}

TEST(OptionTable, TheReaderNamesTheKeyAndWhatItTakes) {
  nlohmann::json j = to_json(Options{});
  j["hip_unit"] = "xcd";
  try {
    options_from_json(j);
    ADD_FAILURE() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "the option \"hip_unit\" is recorded as \"xcd\", not cu or wgp");
  }
  j = to_json(Options{});
  j.erase("lines_per_class");
  EXPECT_THROW(options_from_json(j), UsageError);
}

// Where and how loudly are recorded, never compared.
TEST(OptionTable, ResumeIgnoresOnlyWhereAndHowLoudly) {
  for (const char* key : {"out_dir", "quiet", "resume_dir"}) EXPECT_TRUE(resume_ignores(key)) << key;
  for (const char* key : {"iters", "lines_per_class", "placements", "cross_home", "check_max_rel_diff"})
    EXPECT_FALSE(resume_ignores(key)) << key;
}

TEST(OptionTable, EveryRangeRefusesAValueOutsideItNamingItsFlag) {
  for (const OptionRow& row : map_option_rows()) {
    if (row.flags.empty() || row.range.low == Range::kNoLow) continue;
    const std::string flag(row.flag());
    SCOPED_TRACE(flag);
    const std::int64_t outside = row.range.above_low ? row.range.low : row.range.low - 1;
    try {
      parse({flag, std::to_string(outside)});
      ADD_FAILURE() << "accepted";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(flag, 0), 0u) << e.what();
    }
  }
}

TEST(OptionTable, EveryBarrierAndContentionRowParsesAndIsRecorded) {
  for (const bool contention : {false, true}) {
    const std::string name = contention ? "contention" : "barrier";
    SyncOptions defaults;
    defaults.contention = contention;
    defaults.common.out_dir = contention ? SyncOptions::kContentionOut : SyncOptions::kBarrierOut;
    const nlohmann::json default_options = to_json(defaults);
    for (const OptionRow& row : sync_option_rows()) {
      if (!(contention ? kContentionCommand : kBarrierCommand).contains(row.group)) continue;
      const std::string flag(row.flag()), key(row.key);
      SCOPED_TRACE(name + " " + flag);
      std::vector<std::string> args{name, flag};
      for (const std::string& v : other_value(row, defaults.common, defaults)) args.push_back(v);
      const cli::Command command = parse(args);
      ASSERT_TRUE(std::holds_alternative<cli::SyncCommand>(command));
      const SyncOptions& o = std::get<cli::SyncCommand>(command).options;
      EXPECT_TRUE(member_differs(row, o.common, o, defaults.common, defaults)) << "the flag set nothing";
      const nlohmann::json recorded = to_json(o);
      EXPECT_EQ(recorded.contains(key), row.recorded != Recorded::No) << key;
      if (row.recorded != Recorded::No) {
        EXPECT_NE(recorded[key], default_options.value(key, nlohmann::json())) << key;
      }
      EXPECT_EQ(recorded["command"], name);
    }
  }
}

// One enum's table: every value named once, each name read back as its
// value, to_string saying the same, another word refused with the choices.
template <typename Enum>
void expect_names_round_trip(Enum last) {
  const auto& table = names_of<Enum>();
  SCOPED_TRACE(std::string(table.what));
  EXPECT_EQ(table.rows.size(), static_cast<std::size_t>(last) + 1) << "a value without a name";
  std::map<std::string_view, Enum> seen;
  for (Enum value : table.values()) {
    const std::string_view name = table.name(value);
    EXPECT_TRUE(seen.emplace(name, value).second) << name << " names two values";
    EXPECT_EQ(table.parse(name), value);
    EXPECT_EQ(to_string(value), name);
  }
  try {
    table.parse("no-such-name");
    ADD_FAILURE() << "accepted";
  } catch (const UsageError& e) {
    const std::string message = e.what();
    for (std::string_view name : table.names()) EXPECT_NE(message.find(std::string(name)), std::string::npos) << message;
  }
}

TEST(EnumNames, EveryValueRoundTripsThroughItsName) {
  expect_names_round_trip(Placement::CrossHome);
  expect_names_round_trip(BackendKind::Hip);
  expect_names_round_trip(Probe::Mbarrier);
  expect_names_round_trip(UnitOrder::Topology);
  expect_names_round_trip(HipUnit::Wgp);
  expect_names_round_trip(ScheduleKind::Concurrent);
  expect_names_round_trip(Path::Dsm);
  expect_names_round_trip(FlagOn::Both);
  expect_names_round_trip(BarrierImpl::Platform);
  expect_names_round_trip(ContentionOp::Add);
  expect_names_round_trip(ParticipantSet::Spread);
  expect_names_round_trip(CounterHome::Far);
}

TEST(EnumNames, TheWordParsersAreTheTables) {
  EXPECT_EQ(backend_kind_from_string("hip"), BackendKind::Hip);
  EXPECT_EQ(placement_from_string("cross-home"), Placement::CrossHome);
  EXPECT_EQ(barrier_impl_from_string("two-level"), BarrierImpl::TwoLevel);
  EXPECT_EQ(participant_set_from_string("one-gpc"), ParticipantSet::OneGroup);
  try {
    backend_kind_from_string("rocm");
    ADD_FAILURE() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "unknown backend \"rocm\" (known: auto, cpu, cuda, hip)");
  }
  EXPECT_FALSE(backend_facts(BackendKind::Cpu).several_devices);
  EXPECT_TRUE(backend_facts(BackendKind::Cuda).spans_devices);
  EXPECT_TRUE(backend_facts(BackendKind::Hip).unit_choice && backend_facts(BackendKind::Hip).stream_budget);
  EXPECT_TRUE(backend_facts(BackendKind::Auto).several_devices);
}

}  // namespace
}  // namespace cumap
