#include "cli/command_line.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>
#include <tuple>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cumap/error.hpp"
#include "core/printable.hpp"
#include "core/units.hpp"

namespace cumap::cli {
namespace {

const std::map<std::string, BackendKind> kBackends{
    {"auto", BackendKind::Auto}, {"cpu", BackendKind::Cpu}, {"cuda", BackendKind::Cuda}, {"hip", BackendKind::Hip}};
const std::map<std::string, Probe> kProbes{
    {"cas", Probe::Cas},           {"exch", Probe::Exch},         {"acq-rel", Probe::AcqRel},
    {"volatile", Probe::Volatile}, {"mbarrier", Probe::Mbarrier}};
const std::map<std::string, UnitOrder> kOrders{{"index", UnitOrder::Index}, {"topology", UnitOrder::Topology}};
const std::map<std::string, HipUnit> kHipUnits{{"cu", HipUnit::Cu}, {"wgp", HipUnit::Wgp}};
const std::map<std::string, ScheduleKind> kSchedules{
    {"auto", ScheduleKind::Auto}, {"serial", ScheduleKind::Serial}, {"concurrent", ScheduleKind::Concurrent}};
const std::map<std::string, Path> kPaths{{"global", Path::Global}, {"dsm", Path::Dsm}};
const std::map<std::string, std::string> kColormaps{{"viridis", "viridis"}, {"magma", "magma"}, {"cividis", "cividis"}};
const std::map<std::string, std::string> kSummaryFormats{{"md", "md"}, {"csv", "csv"}, {"json", "json"}};
const std::map<std::string, FlagOn> kFlagOn{{"a", FlagOn::A}, {"b", FlagOn::B}, {"both", FlagOn::Both}};

// A wait longer than an hour is a typo, and chrono arithmetic on
// nanoseconds overflows near 9.2e12 ms: the cap keeps far from it.
constexpr double kMaxTimeoutMs = 3.6e6;
constexpr std::uint64_t kFlagOffsetAlignment = 128;  // one cache line of every supported device
constexpr std::uint64_t kMaxFlagOffset = std::uint64_t{1} << 30;
constexpr std::size_t kMaxTitleChars = 200;  // one line across the picture

// Numbers on the command line are decimal: CLI11 alone would read "0x10"
// as 16, "010" as 8 and " 5" as 5 (strtoll with base 0), hex floats for
// doubles, and takes an empty value as 0. A digit string, a minus sign in
// front at most (the range checks say what negative means), and for
// fractional options a decimal point and exponent.
std::string decimal_number_problem(const std::string& text, bool fractional) {
  if (text.empty()) return "an empty value is not a number";
  std::size_t i = text[0] == '-' ? 1 : 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - from;
  };
  std::size_t mantissa = digits();
  if (fractional && i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  bool ok = mantissa > 0;
  if (ok && fractional && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    ok = digits() > 0;
  }
  if (ok && i == text.size()) return "";
  return fmt::format("'{}' is not a {} number", printable_excerpt(text), fractional ? "decimal" : "whole decimal");
}

// Puts the decimal check on every numeric option of `app` (CLI11 names their
// types INT, UINT and FLOAT); the help text stays as it is.
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

// The key meta.json records each map option under (to_json(Options)): with
// --resume DIR the options typed are compared by it with the earlier run's,
// and the others are taken from it. Not recorded: --out, --quiet, --resume
// and --max-streams (where and how loudly, and the hip backend's queues).
const std::map<std::string, std::string> kRecordedAs{
    {"--backend", "backend"},
    {"--device", "device"},
    {"--unit", "hip_unit"},
    {"--devices", "devices"},
    {"--units", "units_spec"},
    {"--home-lines", "home_lines"},
    {"--home-chain", "home_chain"},
    {"--home-stride", "home_stride"},
    {"--home-serial", "home_serial"},
    {"--flag-offset", "flag_offset"},
    {"--flag-on", "flag_on"},
    {"--same-line", "placements"},
    {"--split-line", "placements"},
    {"--cross-home", "placements"},
    {"--iters", "iters"},
    {"--samples", "samples"},
    {"--warmup", "warmup"},
    {"--timeout-ms", "timeout_ms"},
    {"--ordered", "ordered"},
    {"--schedule", "schedule"},
    {"--concurrency", "concurrency"},
    {"--check-pairs", "check_pairs"},
    {"--via", "via"},
    {"--no-line-correction", "line_correction"},
    {"--flush-cache", "flush_cache"},
    {"--rotating-count", "rotating_count"},
    {"--cross-lines", "cross_lines"},
    {"--l2-persist", "l2_persist"},
    {"--probe", "probe"},
    {"--order", "order"},
    {"--colormap", "colormap"},
};

// The recorded map options the user typed, by flag (see kRecordedAs).
std::map<std::string, std::string> typed_recorded_options(const CLI::App& app) {
  std::map<std::string, std::string> typed;
  for (const CLI::Option* option : app.get_options())
    if (option->count() > 0)
      if (const auto it = kRecordedAs.find(option->get_name()); it != kRecordedAs.end()) typed.insert(*it);
  return typed;
}

// Enum-valued options are read as text and mapped after parsing: Debian's
// CLI11 2.1 cannot bind enums directly under C++20. Names are lowercase
// only, all of them alike: "CPU" is as unknown as "VIRIDIS".
struct Choices {
  std::string backend = "auto";
  std::string probe = "cas";
  std::string order = "topology";
  std::string hip_unit = "cu";
  std::string schedule = "auto";
  std::string via = "global";
  std::string flag_on = "both";
  std::string flag_offset = "0";
  int lines_per_class = 0;  // read only when given (MapFlags::lines_per_class)
  int cross_lines = 0;      // read only when given (MapFlags::cross_lines)
  int iters = 0;           // read only when given (MapFlags::iters)

  void apply(Options& o) const {
    o.backend = kBackends.at(backend);
    o.probe = kProbes.at(probe);
    o.order = kOrders.at(order);
    o.hip_unit = kHipUnits.at(hip_unit);
    o.schedule = kSchedules.at(schedule);
    o.via = kPaths.at(via);
    o.flag_on = kFlagOn.at(flag_on);
  }
};

template <typename Value>
CLI::Option* add_choice(CLI::App& app, const std::string& name, std::string& target,
                        const std::map<std::string, Value>& allowed, const std::string& help) {
  std::vector<std::string> names;
  for (const auto& [k, v] : allowed) names.push_back(k);
  return app.add_option(name, target, help)->check(CLI::IsMember(names))->capture_default_str();
}

// Which of the device options the user typed (not merely defaulted).
struct DeviceFlags {
  CLI::Option* backend = nullptr;
  CLI::Option* device = nullptr;
  CLI::Option* unit = nullptr;
};

// Options that pick and drive a device; shared by the map and the subcommands.
DeviceFlags add_device_options(CLI::App& app, Options& o, Choices& c) {
  DeviceFlags f;
  f.backend = add_choice(app, "--backend", c.backend, kBackends, "auto, cpu, cuda or hip");
  f.device = app.add_option("--device", o.device, "GPU index (cpu: only 0)")->capture_default_str();
  f.unit = add_choice(app, "--unit", c.hip_unit, kHipUnits, "hip backend: measure per cu or per wgp");
  return f;
}

// Options of home discovery, which every map starts with and `cumap homes`
// runs alone. Returns --units and --devices (checked after parsing).
struct HomeFlags {
  CLI::Option* units = nullptr;
  CLI::Option* devices = nullptr;
  CLI::Option* out = nullptr;
};
HomeFlags add_home_options(CLI::App& app, Options& o, Choices& c) {
  HomeFlags f;
  f.devices = app.add_option("--devices", o.devices_spec,
                             "GPUs of one map across them, e.g. 0,1 or all (cuda; default: the one of --device)");
  f.units = app.add_option("--units", o.units_spec,
                           "units to measure, e.g. 0-7,16,32-47 (default: all); with --devices of every GPU, or "
                           "g1.0-7 of GPU 1");
  app.add_option("--home-lines", o.home_lines,
                 "lines probed to find the flags' home classes; the flag arena is these lines "
                 "(1: every pair on one line, a single-address map)")
      ->capture_default_str();
  app.add_option("--home-chain", o.home_chain,
                 "dependent atomics per timing of a line in home discovery (3 timings per unit and line)")
      ->capture_default_str();
  app.add_option("--home-stride", o.home_stride,
                 "bytes from one probed line to the next (a multiple of 128): wider spreads the flag lines over "
                 "more of the memory system")
      ->capture_default_str();
  app.add_flag("--home-serial", o.home_serial,
               "home discovery one unit at a time, the others idle (default: every unit at once, each on "
               "other lines; GPU backends with one persistent launch, i.e. cuda)");
  app.add_option("--flag-offset", c.flag_offset,
                 "move the flag arena by BYTES (a multiple of 128, at most 1 GiB)")
      ->capture_default_str();
  f.out = app.add_option("--out", o.out_dir, "output directory")->capture_default_str();
  app.add_flag("--quiet,-q", o.quiet, "no progress, no summary");
  return f;
}

// Options of the map only (the CLI11 objects of those the user can mistype).
struct MapFlags {
  HomeFlags home;
  CLI::Option* flag_on = nullptr;
  CLI::Option* concurrency = nullptr;
  CLI::Option* lines_per_class = nullptr;
  CLI::Option* cross_lines = nullptr;
  CLI::Option* iters = nullptr;
  CLI::Option* resume = nullptr;
};

MapFlags add_map_options(CLI::App& app, Options& o, Choices& c, bool& same_line, bool& split_line, bool& cross_home) {
  MapFlags f;
  f.home = add_home_options(app, o, c);
  f.flag_on = add_choice(app, "--flag-on", c.flag_on, kFlagOn,
                         "across GPUs: whose memory holds a pair's flags: a (the first unit's GPU), b, or both in turn");
  app.add_flag("--same-line", same_line, "both flags in one cache line (default: both placements)");
  app.add_flag("--split-line", split_line, "the flags in different cache lines (default: both placements)");
  app.add_flag("--cross-home", cross_home,
               "also map with the two flags in lines of different home classes (in addition to the placements above)");
  f.iters = app.add_option("--iters", c.iters, "round trips per sample (default: the backend's choice: CUDA 20, AMD and CPU 100)");
  app.add_option("--samples", o.samples, "samples per pair")->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed round trips before the samples (on every line a pair uses)")->capture_default_str();
  app.add_option("--timeout-ms", o.timeout_ms,
                 "budget of every wait, at most 3600000 (an hour); a pair past it is reported as timed out")
      ->capture_default_str();
  app.add_flag("--ordered", o.ordered, "measure a->b and b->a separately (default: each sample is half a->b, half b->a)");
  add_choice(app, "--schedule", c.schedule, kSchedules,
             "serial: one pair at a time; concurrent: rounds of disjoint pairs; auto: the most concurrency that "
             "passes the serial check");
  f.concurrency = app.add_option("--concurrency", o.concurrency, "at most K pairs at once (default: as many as the backend can)");
  app.add_option("--check-pairs", o.check_pairs, "pairs re-measured serially to check a concurrent map")
      ->capture_default_str();
  add_choice(app, "--via", c.via, kPaths, "how the signal travels: global (memory) or dsm (CUDA: distributed shared memory in a cluster)");
  app.add_flag("!--no-line-correction", o.line_correction,
               "maps show the measured medians as they are, without subtracting what the home table predicts "
               "for each flag line");
  f.resume = app.add_option("--resume", o.resume_dir,
                            "continue the interrupted run in DIR with its options, measuring only the missing pairs");
  app.add_flag("--flush-cache", o.flush_cache,
               "flush the cache before each round of pairs (GPU: L2, AMD also the instruction cache; CPU: the "
               "last-level cache)");
  f.lines_per_class = app.add_option("--rotating-count", c.lines_per_class,
                                    "flag lines every pair uses in every home class; cells are the median over "
                                    "them (default: the backend's choice: CUDA 24, AMD 32, CPU 1)");
  f.cross_lines = app.add_option("--cross-lines", c.cross_lines,
                                 "with --devices: flag lines per home class each pair across GPUs uses on each GPU "
                                 "that holds its flags (default: the backend's choice: CUDA 12, at most --rotating-count)");
  app.add_flag("--l2-persist", o.l2_persist, "CUDA: keep the flags in a persisting L2 window");
  add_choice(app, "--probe", c.probe, kProbes,
             "signalling operation: cas, exch, acq-rel, volatile; mbarrier with --via dsm");
  app.add_option("--max-streams", o.max_streams,
                 "AMD: most CU-masked streams (hardware queues) at once (default 0: the device's usable queues)")
      ->capture_default_str();
  add_choice(app, "--order", c.order, kOrders, "row/column order of matrices and heatmaps: index or topology");
  add_choice(app, "--colormap", o.colormap, kColormaps, "viridis, magma or cividis");
  return f;
}

std::string join_argv(int argc, char** argv) {
  std::ostringstream s;
  for (int i = 0; i < argc; ++i) s << (i ? " " : "") << argv[i];
  return s.str();
}

// Code points, not bytes: a title's length as its reader counts it.
std::size_t char_count(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool has_control_character(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7F) return true;
  return false;
}

// A path the user names for output: no line breaks or other control
// characters (they end up in file listings, logs and meta.json), and no
// component longer than any Linux file system allows.
void check_output_path(std::string_view flag, const std::filesystem::path& path) {
  const std::string& text = path.native();
  if (text.empty()) throw UsageError(fmt::format("{} must name a path", flag));
  if (has_control_character(text))
    throw UsageError(fmt::format("{} '{}': a path with control characters (line breaks, tabs...) is not accepted",
                                 flag, printable_excerpt(text)));
  if (text.size() >= PATH_MAX)
    throw UsageError(fmt::format("{} '{}': the path is too long ({} bytes; at most {})", flag,
                                 printable_excerpt(text), text.size(), PATH_MAX - 1));
  for (const auto& part : path)
    if (part.native().size() > NAME_MAX)
      throw UsageError(fmt::format("{} '{}': a file name in the path is too long ({} bytes; at most {})", flag,
                                   printable_excerpt(text), part.native().size(), NAME_MAX));
}

// --flag-offset BYTES: a plain non-negative integer (no sign, no exponent).
std::uint64_t parse_flag_offset(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return UsageError(fmt::format("--flag-offset '{}': {}", printable_excerpt(text), why));
  };
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ptr != end || ec == std::errc::invalid_argument) throw bad("not a non-negative whole number of bytes");
  if (ec == std::errc::result_out_of_range || value > kMaxFlagOffset) throw bad("more than 1 GiB (1073741824 bytes)");
  if (value % kFlagOffsetAlignment != 0)
    throw bad(fmt::format("not a multiple of {} bytes (a cache line)", kFlagOffsetAlignment));
  return value;
}

// Device options that the chosen backend would silently ignore.
void check_device_options(const Options& o, const DeviceFlags& given) {
  if (o.device < 0) throw UsageError(fmt::format("--device must not be negative (got {})", o.device));
  if (o.backend == BackendKind::Auto) return;  // the backend that opens checks them (map_run.cpp)
  const BackendFacts facts = backend_facts(o.backend);
  if (!facts.several_devices && o.device != 0)
    throw UsageError(fmt::format("--device {}: the {} backend has only device 0", o.device, to_string(o.backend)));
  if (given.unit->count() > 0 && !facts.unit_choice)
    throw UsageError(fmt::format("--unit applies to the hip backend only, not to --backend {}", to_string(o.backend)));
}

// --units given with nothing in it would silently mean "every unit"; the
// same for --devices. --device and --devices name the GPUs twice.
void check_home_flags(const HomeFlags& given, const DeviceFlags& device, const Options& o,
                      const std::string& leave_out_means) {
  const auto blank = [](const std::string& s) { return s.find_first_not_of(" \t") == std::string::npos; };
  if (given.units->count() > 0 && blank(o.units_spec))
    throw UsageError(fmt::format("--units: the unit list is empty (leave out --units to {})", leave_out_means));
  if (given.devices->count() == 0) return;
  if (blank(o.devices_spec)) throw UsageError("--devices: the GPU list is empty (leave it out for --device's one GPU)");
  if (device.device->count() > 0) throw UsageError("--device and --devices both name GPUs: give one of them");
  // Before any GPU is counted or opened: "0,0" would quietly be one GPU.
  if (const std::optional<int> twice = first_repeated_id(o.devices_spec))
    throw UsageError(fmt::format("--devices: '{}' names GPU {} twice; name each GPU once",
                                 printable_excerpt(o.devices_spec), *twice));
}

// CLI11 messages sometimes span lines and quote what was typed: users get
// one line with the typed text made printable.
std::string one_line(const std::string& s) {
  std::string flat = s;
  for (char& c : flat)
    if (c == '\n') c = ' ';  // CLI11's own line breaks
  while (!flat.empty() && flat.back() == ' ') flat.pop_back();
  return printable_excerpt(flat, 300);
}

// Options of the top-level command given together with a subcommand or
// --list-devices: they would be ignored, so they are an error.
void reject_top_level_options(const CLI::App& app, const std::string& what,
                              const std::vector<const CLI::Option*>& allowed) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0 || std::find(allowed.begin(), allowed.end(), option) != allowed.end()) continue;
    throw UsageError(fmt::format("{} does not apply to {} (options before a subcommand belong to the map)",
                                 option->get_name(), what));
  }
}

// --resume DIR: a directory named (an unset shell variable is not the
// current directory), and the output directory is DIR itself.
void check_resume_flags(const Options& o, const MapFlags& given) {
  const std::string& dir = o.resume_dir.native();
  if (dir.empty()) throw UsageError("--resume must name the output directory of an earlier run (it is empty)");
  if (has_control_character(dir))
    throw UsageError(fmt::format("--resume '{}': a path with control characters is not accepted",
                                 printable_excerpt(dir)));
  if (given.home.out->count() == 0) return;
  // "D", "D/" and "./D" are one directory; so are two names of an existing one.
  const auto normal = [](const std::filesystem::path& p) { return (p / "").lexically_normal(); };
  std::error_code ec;
  const bool same =
      normal(o.out_dir) == normal(o.resume_dir) || std::filesystem::equivalent(o.out_dir, o.resume_dir, ec);
  if (!same)
    throw UsageError(fmt::format("--out '{}' with --resume '{}': a resumed run completes the files in its --resume "
                                 "directory; leave out --out",
                                 printable_excerpt(o.out_dir.native()), printable_excerpt(dir)));
}

// `cumap barrier` and `cumap contention`: the device and home options of
// `cumap homes`, --probe and --timeout-ms of the map, and their own lists,
// read as words and mapped after parsing (as Choices are).
struct SyncChoices {
  std::vector<std::string> impls{"counter", "flag", "two-level", "platform"};
  std::vector<std::string> ops{"cas", "add"};
  std::vector<std::string> sets{"one-side", "alternating", "one-gpc", "spread"};
  std::vector<std::string> homes{"near", "far"};
  std::string k;
};
struct SyncFlags {
  DeviceFlags device;
  HomeFlags home;
  CLI::Option* k = nullptr;
};

constexpr int kMaxEpisodes = 1000000;
// Each launch of a case takes lines of its own; beyond this a sweep's launches, not its values, set its time.
constexpr int kMaxLaunches = 1000;

CLI::App* add_sync_subcommand(CLI::App& app, SyncCommand& command, Choices& c, SyncChoices& s, SyncFlags& f) {
  SyncOptions& o = command.options;
  const bool contention = o.contention;
  o.common.out_dir = contention ? SyncOptions::kContentionOut : SyncOptions::kBarrierOut;
  CLI::App* sub = app.add_subcommand(
      contention ? "contention" : "barrier",
      contention ? "k units performing dependent atomics (cas, add) on one line, near and far homes, k swept: "
                   "latency per operation and aggregate rate"
                 : "what a barrier of k units costs, by implementation, participant set and counter home, k swept");
  f.device = add_device_options(*sub, o.common, c);
  f.home = add_home_options(*sub, o.common, c);
  f.home.devices->description("GPUs of one sweep across them, e.g. 0,1: participant sets interleave the GPUs, "
                              "counters go on each GPU in turn, two-level groups by GPU (cuda; default: the one of "
                              "--device)");
  f.home.units->description("units that may take part, e.g. 0-7,16,32-47 (default: all); with --devices of every "
                            "GPU, or g1.0-7 of GPU 1");
  const auto list = [&](const char* name, std::vector<std::string>& target, std::vector<std::string> allowed,
                        const std::string& help) {
    sub->add_option(name, target, help)->delimiter(',')->check(CLI::IsMember(std::move(allowed)));
  };
  if (contention) {
    list("--op", s.ops, {"cas", "add"}, "operations on the contended line (default: cas,add)");
    sub->add_option("--ops-per-batch", o.ops_per_batch, "dependent operations per timed batch")->capture_default_str();
  } else {
    list("--impl", s.impls, {"counter", "flag", "two-level", "platform"},
         "barrier implementations (default: counter,flag,two-level,platform)");
  }
  list("--sets", s.sets, {"one-side", "alternating", "one-gpc", "spread"},
       "participant sets by structure (default: one-side,alternating,one-gpc,spread)");
  list("--homes", s.homes, {"near", "far"},
       "counter lines by home class, relative to the participants (default: near,far)");
  f.k = sub->add_option("--k", s.k,
                        std::string("participant counts, e.g. 2,8,all (all: every unit of the set; default: ") +
                            (contention ? "1, 2, 4, ..." : "2, 4, 8, ...") + " and all)");
  sub->add_option("--episodes", o.episodes,
                  contention ? "timed batches per participant" : "timed barrier episodes per launch")
      ->capture_default_str();
  sub->add_option("--warmup", o.warmup, contention ? "untimed batches first" : "untimed episodes first")
      ->capture_default_str();
  sub->add_option("--launches", o.launches,
                  contention ? fmt::format("launches per case, each on counter lines of its own; a case's numbers "
                                           "are over every launch's operations (default: {})",
                                           SyncOptions::kContentionLaunches)
                             : "launches per case, each on counter lines of its own; a case's number is the mean "
                               "over them (default: the backend's choice: CUDA and AMD 100, CPU 10)");
  sub->add_option("--timeout-ms", o.common.timeout_ms,
                  "budget of every wait, at most 3600000 (an hour); a case past it is reported as timed out")
      ->capture_default_str();
  add_choice(*sub, "--probe", c.probe, kProbes, "how participants poll and signal: cas, exch, acq-rel, volatile");
  return sub;
}

// --k: whole numbers of at least 1, and "all".
KSweep parse_k(const std::string& text) {
  KSweep sweep{{}, false, false};
  std::stringstream in(text);
  for (std::string token; std::getline(in, token, ',');) {
    if (token == "all") {
      sweep.every_unit = true;
      continue;
    }
    if (!decimal_number_problem(token, false).empty() || token.starts_with('-') || token.size() > 9 ||
        std::stoi(token) < 1)
      throw UsageError(fmt::format("--k: '{}' is not a participant count (a whole number of at least 1, or all)",
                                   printable_excerpt(token)));
    sweep.values.push_back(std::stoi(token));
  }
  if (sweep.values.empty() && !sweep.every_unit)
    throw UsageError("--k: the list is empty (leave out --k for the doubling sweep and every unit)");
  std::sort(sweep.values.begin(), sweep.values.end());
  sweep.values.erase(std::unique(sweep.values.begin(), sweep.values.end()), sweep.values.end());
  return sweep;
}

template <typename Enum>
std::vector<Enum> distinct_words(const std::vector<std::string>& words, const char* flag,
                                 Enum (*from)(std::string_view)) {
  std::vector<Enum> out;
  for (const std::string& w : words) {
    const Enum e = from(w);
    if (std::find(out.begin(), out.end(), e) != out.end())
      throw UsageError(fmt::format("{}: {} is named twice", flag, printable_excerpt(w)));
    out.push_back(e);
  }
  if (out.empty()) throw UsageError(fmt::format("{}: the list is empty", flag));
  return out;
}

// What CLI11 cannot check of a sync command, before anything is opened.
void finish_sync(SyncCommand& command, const Choices& c, const SyncChoices& s, const SyncFlags& f) {
  SyncOptions& o = command.options;
  check_device_options(o.common, f.device);
  check_home_flags(f.home, f.device, o.common, "measure with every unit");
  if (o.common.probe == Probe::Mbarrier)
    throw UsageError("--probe mbarrier exists only with --via dsm; barriers poll with cas, exch, acq-rel or volatile");
  o.common.flag_offset = parse_flag_offset(c.flag_offset);
  if (o.contention) o.ops = distinct_words(s.ops, "--op", &contention_op_from_string);
  else o.impls = distinct_words(s.impls, "--impl", &barrier_impl_from_string);
  o.sets = distinct_words(s.sets, "--sets", &participant_set_from_string);
  o.homes = distinct_words(s.homes, "--homes", &counter_home_from_string);
  if (f.k->count() > 0) o.k = parse_k(s.k);
  if (o.episodes < 1 || o.episodes > kMaxEpisodes)
    throw UsageError(fmt::format("--episodes must be from 1 to {} (got {})", kMaxEpisodes, o.episodes));
  if (o.warmup < 0 || o.warmup > kMaxEpisodes)
    throw UsageError(fmt::format("--warmup must be from 0 to {} (got {})", kMaxEpisodes, o.warmup));
  if (o.launches && (*o.launches < 1 || *o.launches > kMaxLaunches))
    throw UsageError(fmt::format("--launches must be from 1 to {} (got {})", kMaxLaunches, *o.launches));
  if (o.ops_per_batch < 1 || o.ops_per_batch > kMaxEpisodes)
    throw UsageError(fmt::format("--ops-per-batch must be from 1 to {} (got {})", kMaxEpisodes, o.ops_per_batch));
  // A flag barrier's counter and release flag are two lines of the arena.
  if (o.common.home_lines < 2)
    throw UsageError(fmt::format("--home-lines must be at least 2 for a counter and a flag line (got {})",
                                 o.common.home_lines));
  validate_options(o.common);
}

}  // namespace

// 64 Ki lines: an 8 MiB arena, already larger than most L2 slices' share of
// the address space; the probe's time grows with units x lines.
constexpr int kMaxHomeLines = 65536;
constexpr int kMaxHomeChain = 4096;
constexpr int kMaxHomeStride = 1 << 20;
constexpr std::uint64_t kMaxArenaBytes = std::uint64_t{1} << 30;

void validate_options(const Options& o) {
  if (o.iters && *o.iters < 1) throw UsageError(fmt::format("--iters must be at least 1 (got {})", *o.iters));
  if (o.samples < 1) throw UsageError(fmt::format("--samples must be at least 1 (got {})", o.samples));
  if (o.warmup < 0) throw UsageError(fmt::format("--warmup must not be negative (got {})", o.warmup));
  if (!std::isfinite(o.timeout_ms) || !(o.timeout_ms > 0) || o.timeout_ms > kMaxTimeoutMs)
    throw UsageError(fmt::format("--timeout-ms must be more than 0 and at most {:.0f} (an hour); got {}",
                                 kMaxTimeoutMs, o.timeout_ms));
  if (o.lines_per_class && *o.lines_per_class < 1)
    throw UsageError(fmt::format("--rotating-count must be at least 1 (got {}); leave it out for the backend's "
                                 "choice", *o.lines_per_class));
  // More lines per pair than were probed would only repeat lines.
  if (o.lines_per_class && *o.lines_per_class > o.home_lines)
    throw UsageError(fmt::format("--rotating-count {} asks for more lines per class than the {} lines probed "
                                 "(--home-lines)", *o.lines_per_class, o.home_lines));
  if (o.cross_lines && o.devices_spec.empty())
    throw UsageError("--cross-lines sets the lines of pairs across GPUs: it needs a map across GPUs (--devices)");
  if (o.cross_lines && (*o.cross_lines < 1 || *o.cross_lines > o.home_lines))
    throw UsageError(fmt::format("--cross-lines must be from 1 to the {} lines probed (--home-lines); got {}",
                                 o.home_lines, *o.cross_lines));
  if (o.concurrency < 0) throw UsageError(fmt::format("--concurrency must be at least 1 (got {})", o.concurrency));
  if (o.check_pairs < 1) throw UsageError(fmt::format("--check-pairs must be at least 1 (got {})", o.check_pairs));
  if (o.home_lines < 1 || o.home_lines > kMaxHomeLines)
    throw UsageError(fmt::format("--home-lines must be from 1 to {} (got {})", kMaxHomeLines, o.home_lines));
  if (o.max_streams < 0) throw UsageError(fmt::format("--max-streams must not be negative (got {})", o.max_streams));
  if (o.home_stride < 128 || o.home_stride % 128 != 0 || o.home_stride > kMaxHomeStride)
    throw UsageError(fmt::format("--home-stride must be a multiple of 128 from 128 to {} (got {})", kMaxHomeStride,
                                 o.home_stride));
  if (static_cast<std::uint64_t>(o.home_stride) * static_cast<std::uint64_t>(o.home_lines) > kMaxArenaBytes)
    throw UsageError(fmt::format("--home-lines {} x --home-stride {} is more than {} bytes of flag arena",
                                 o.home_lines, o.home_stride, kMaxArenaBytes));
  if (o.home_chain < 1 || o.home_chain > kMaxHomeChain)
    throw UsageError(fmt::format("--home-chain must be from 1 to {} (got {})", kMaxHomeChain, o.home_chain));
  if (o.flag_offset % kFlagOffsetAlignment != 0 || o.flag_offset > kMaxFlagOffset)
    throw UsageError(fmt::format("--flag-offset must be a multiple of {} and at most 1 GiB (got {})",
                                 kFlagOffsetAlignment, o.flag_offset));
  if (o.device < 0) throw UsageError(fmt::format("--device must not be negative (got {})", o.device));
  // The command line takes only these names; an earlier run's meta.json (--resume) may hold anything.
  if (!kColormaps.contains(o.colormap))
    throw UsageError(fmt::format("--colormap '{}' is not viridis, magma or cividis", printable_excerpt(o.colormap)));
  check_output_path("--out", o.out_dir);
}

Command parse_command_line(int argc, char** argv) {
  CLI::App app{"cumap: maps cross-compute-unit synchronization latency (CAS ping-pong) on GPUs and CPUs", "cumap"};
  app.set_version_flag("--version", std::string("cumap ") + CUMAP_VERSION);
  app.require_subcommand(0, 1);

  MapCommand map;
  bool same_line = false, split_line = false, cross_home = false, list_devices = false;
  Choices map_choices, topo_choices;
  const DeviceFlags map_device = add_device_options(app, map.options, map_choices);
  const MapFlags map_flags = add_map_options(app, map.options, map_choices, same_line, split_line, cross_home);
  CLI::Option* list_devices_flag =
      app.add_flag("--list-devices", list_devices, "list the devices each built backend can see");

  RenderCommand render;
  CLI::App* render_app = app.add_subcommand("render", "re-draw a heatmap PNG from a matrix CSV");
  render_app->add_option("csv", render.request.csv, "matrix CSV written by cumap")->required();
  render_app->add_option("-o,--output", render.request.png, "PNG to write")->required();
  CLI::Option* order_file = render_app->add_option("--order", render.request.order,
                                                   "a run's output directory or its meta.json (drawn as the run drew "
                                                   "it), or a topology JSON giving unit order and groups");
  render_app->add_option("--scale", render.request.scale, "auto or MIN:MAX in ns")->capture_default_str();
  render_app->add_option("--title", render.request.title, "title line (at most 200 characters)");
  add_choice(*render_app, "--colormap", render.request.colormap, kColormaps,
             "viridis, magma or cividis (default: the run's, with --order DIR, else viridis)");

  TopologyCommand topo;
  CLI::App* topo_app = app.add_subcommand("topology", "print the discovered layout of the device's units");
  const DeviceFlags topo_device = add_device_options(*topo_app, topo.options, topo_choices);
  topo_app->add_option("--json", topo.json_out, "also write the layout as JSON to this file");

  HomesCommand homes;
  Choices homes_choices;
  CLI::App* homes_app = app.add_subcommand(
      "homes", "home discovery alone (the first step of every map): the flag lines' home classes, the units' sides");
  const DeviceFlags homes_device = add_device_options(*homes_app, homes.options, homes_choices);
  const HomeFlags homes_flags = add_home_options(*homes_app, homes.options, homes_choices);

  CoherenceCommand coherence;
  Choices coherence_choices;
  CLI::App* coh_app =
      app.add_subcommand("check-coherence", "which load/store operators see another SM's store (GPU L1 coherence)");
  const DeviceFlags coh_device = add_device_options(*coh_app, coherence.options, coherence_choices);
  coh_app->add_option("--reader", coherence.reader, "unit that caches the line (default: the first)");
  coh_app->add_option("--writer", coherence.writer, "unit that stores to it (default: the last)");
  coh_app->add_option("--window-ms", coherence.window_ms, "how long the reader looks for the new value (at most an hour)")
      ->capture_default_str();
  coh_app->add_option("--json", coherence.json_out, "also write the table as JSON to this file");

  SummaryCommand summary;
  CLI::App* summary_app = app.add_subcommand(
      "summary", "a run's results in a page, from its output directory's meta.json (and barrier.csv or "
                 "contention.csv)");
  summary_app->add_option("dir", summary.dir, "output directory of a map, barrier or contention run (or its meta.json)")
      ->required();
  add_choice(*summary_app, "--format", summary.format, kSummaryFormats,
             "md (GitHub markdown, as summary.md), csv (a map: the structure table, one row per placement, class and "
             "relation; barrier, contention: the CSV's rows at k = every unit of each set, with all its columns) or "
             "json");

  SyncCommand barrier, contention;
  contention.options.contention = true;
  Choices barrier_choices, contention_choices;
  SyncChoices barrier_lists, contention_lists;
  SyncFlags barrier_flags, contention_flags;
  CLI::App* barrier_app = add_sync_subcommand(app, barrier, barrier_choices, barrier_lists, barrier_flags);
  CLI::App* contention_app =
      add_sync_subcommand(app, contention, contention_choices, contention_lists, contention_flags);

  for (CLI::App* a : {&app, render_app, topo_app, homes_app, coh_app, summary_app, barrier_app, contention_app})
    decimal_numbers_only(*a);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return Answered{app.exit(e)};
  } catch (const CLI::ParseError& e) {
    throw UsageError(one_line(e.what()) + " (see cumap --help)");
  }

  map_choices.apply(map.options);
  topo_choices.apply(topo.options);
  coherence_choices.apply(coherence.options);
  homes_choices.apply(homes.options);

  if (homes_app->parsed()) {
    reject_top_level_options(app, "homes", {});
    check_device_options(homes.options, homes_device);
    check_home_flags(homes_flags, homes_device, homes.options, "probe from every unit");
    homes.options.flag_offset = parse_flag_offset(homes_choices.flag_offset);
    validate_options(homes.options);
    homes.command_line = join_argv(argc, argv);
    return homes;
  }

  for (auto [sub, command, choices, lists, flags] :
       {std::tuple{barrier_app, &barrier, &barrier_choices, &barrier_lists, &barrier_flags},
        std::tuple{contention_app, &contention, &contention_choices, &contention_lists, &contention_flags}}) {
    if (!sub->parsed()) continue;
    reject_top_level_options(app, sub->get_name(), {});
    choices->apply(command->options.common);
    finish_sync(*command, *choices, *lists, *flags);
    command->command_line = join_argv(argc, argv);
    return *command;
  }

  if (coh_app->parsed()) {
    reject_top_level_options(app, "check-coherence", {});
    check_device_options(coherence.options, coh_device);
    if (!std::isfinite(coherence.window_ms) || !(coherence.window_ms > 0) || coherence.window_ms > kMaxTimeoutMs)
      throw UsageError(fmt::format("--window-ms must be more than 0 and at most {:.0f} (an hour); got {}",
                                   kMaxTimeoutMs, coherence.window_ms));
    if (coherence.json_out) check_output_path("--json", *coherence.json_out);
    return coherence;
  }
  if (summary_app->parsed()) {
    reject_top_level_options(app, "summary", {});
    return summary;
  }
  if (render_app->parsed()) {
    reject_top_level_options(app, "render", {});
    // Here the path's text; render_csv_file checks it against the file system.
    check_output_path("-o", render.request.png);
    if (order_file->count() > 0 && render.request.order->empty())
      throw UsageError("--order must name a file or directory");
    if (char_count(render.request.title) > kMaxTitleChars)
      throw UsageError(fmt::format("--title is too long ({} characters; at most {})", char_count(render.request.title),
                                   kMaxTitleChars));
    return render;
  }
  if (topo_app->parsed()) {
    reject_top_level_options(app, "topology", {});
    check_device_options(topo.options, topo_device);
    if (topo.json_out) check_output_path("--json", *topo.json_out);
    return topo;
  }
  if (list_devices) {
    // --backend is replaced by every built backend in turn; --device and --unit apply.
    reject_top_level_options(app, "--list-devices", {list_devices_flag, map_device.device, map_device.unit});
    return ListDevicesCommand{map.options, map_device.device->count() > 0};
  }

  check_device_options(map.options, map_device);
  check_home_flags(map_flags.home, map_device, map.options, "map every unit");
  const bool resuming = map_flags.resume->count() > 0;
  // Resuming, the options not typed are the earlier run's (resumed_options):
  // what depends on them is checked there.
  if (map_flags.flag_on->count() > 0 && map_flags.home.devices->count() == 0 && !resuming)
    throw UsageError("--flag-on chooses whose memory holds the flags of pairs across GPUs: it needs --devices");
  if (map_flags.concurrency->count() > 0 && map.options.concurrency < 1)
    throw UsageError(fmt::format("--concurrency must be at least 1 (got {})", map.options.concurrency));
  map.options.flag_offset = parse_flag_offset(map_choices.flag_offset);
  if (map_flags.lines_per_class->count() > 0) map.options.lines_per_class = map_choices.lines_per_class;
  if (map_flags.cross_lines->count() > 0) map.options.cross_lines = map_choices.cross_lines;
  if (map_flags.iters->count() > 0) map.options.iters = map_choices.iters;
  if (same_line != split_line) map.options.placements = {same_line ? Placement::SameLine : Placement::SplitLine};
  if (cross_home) {
    map.options.cross_home = true;
    map.options.placements.push_back(Placement::CrossHome);
  }
  if (resuming) {
    check_resume_flags(map.options, map_flags);
    map.typed = typed_recorded_options(app);
  } else {
    validate_options(map.options);
  }
  map.command_line = join_argv(argc, argv);
  return map;
}

}  // namespace cumap::cli
