#include "cli/resumed_run.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <tuple>

#include <fmt/format.h>

#include "cli/option_checks.hpp"
#include "cli/resume_check.hpp"
#include "core/printable.hpp"
#include "core/units.hpp"
#include "cumap/error.hpp"
#include "cumap/protocol.hpp"
#include "report/read/checked_file.hpp"
#include "report/read/json_fields.hpp"
#include "report/read/meta_json.hpp"

namespace cumap::cli {
namespace {

std::string shown_path(const std::filesystem::path& path) { return printable_excerpt(path.string(), 120); }

// DIR's files through the one checked reader: a named pipe or /dev/zero in
// their place is refused at once, as is JSON nested too deep.
std::string read_text(const std::filesystem::path& path, const ReadKind& kind) {
  try {
    return read_checked_file(path, kind);
  } catch (const FileReadError& e) {
    throw UsageError(fmt::format("--resume: {} (is it the output directory of a cumap map run?)", e.what()));
  }
}

nlohmann::json read_json(const std::filesystem::path& path, const ReadKind& kind) {
  try {
    return read_checked_json(path, kind);
  } catch (const FileReadError& e) {
    throw UsageError(fmt::format("--resume: {} (is it the output directory of a cumap map run?)", e.what()));
  }
}

// "pairs.csv line 7 (pair 0-3, same-line)", for the checks against this run.
std::string row_name(const ResumedRun& run, const PlacedPairStats& row, bool across) {
  return fmt::format("--resume: {} line {} (pair {}-{}, {})", shown_path(run.dir / "pairs.csv"), row.line,
                     format_unit_id(row.stats.a, across), format_unit_id(row.stats.b, across),
                     to_string(row.placement));
}

// What the earlier run's homes.json says of one device's flag lines: how
// many classes, and the class of each line by its offset. The resumed run
// must find the same (check_same_homes), so the pairs are checked against it
// before anything is probed.
struct RecordedLines {
  int class_count = 0;
  std::map<std::uint64_t, int> class_of_line;
};

std::map<int, RecordedLines> recorded_lines(const ResumedRun& run) {
  const auto refuse = [&] {
    return UsageError(fmt::format("--resume: {} is not as cumap writes it", shown_path(run.dir / "homes.json")));
  };
  // One device's homes, or {"devices": [...]} (meta_json.hpp).
  std::vector<const nlohmann::json*> devices;
  if (run.homes.is_object() && run.homes.contains("devices")) {
    if (!run.homes["devices"].is_array()) throw refuse();
    for (const nlohmann::json& d : run.homes["devices"]) devices.push_back(&d);
  } else {
    devices.push_back(&run.homes);
  }
  std::map<int, RecordedLines> out;
  for (const nlohmann::json* d : devices) {
    const std::optional<int> device = json_fields::exact<int>(json_fields::member(*d, "device"));
    const std::optional<int> class_count = json_fields::exact<int>(json_fields::member(*d, "class_count"));
    const nlohmann::json& line_class = json_fields::member(*d, "line_class");
    if (!device || !class_count || !line_class.is_object()) throw refuse();
    RecordedLines& lines = out[*device];
    lines.class_count = *class_count;
    for (const auto& [offset, cls] : line_class.items()) {
      std::uint64_t line = 0;
      const auto [end, error] = std::from_chars(offset.data(), offset.data() + offset.size(), line);
      const std::optional<int> c = json_fields::exact<int>(cls);
      if (error != std::errc() || end != offset.data() + offset.size() || !c) throw refuse();
      lines.class_of_line[line] = *c;
    }
  }
  return out;
}

}  // namespace

std::vector<PairStats> ResumedRun::completed(Placement placement) const {
  std::vector<PairStats> out;
  for (const PlacedPairStats& p : pairs)
    if (p.placement == placement && !p.stats.timed_out) out.push_back(p.stats);
  return out;
}

bool ResumedRun::complete() const {
  // What meta.json says, read without trusting its shape: anything unexpected
  // is "not complete", and the run is continued (and checked) as usual.
  try {
    if (!meta.is_object() || meta.value("interrupted", true) || !meta.contains("maps") || !meta["maps"].is_array() ||
        meta["maps"].empty())
      return false;
    for (const nlohmann::json& map : meta["maps"]) {
      if (!map.is_object() || !map.value("complete", false)) return false;
      if (!map.contains("timed_out_pairs") || !map["timed_out_pairs"].is_array() || !map["timed_out_pairs"].empty())
        return false;
      // Every measurement meta.json counts is a row of pairs.csv.
      const std::string placement = map.value("placement", "");
      const auto rows = std::count_if(pairs.begin(), pairs.end(),
                                      [&](const PlacedPairStats& p) { return to_string(p.placement) == placement; });
      if (!map.contains("measurements") || map["measurements"] != rows) return false;
    }
  } catch (const nlohmann::json::exception&) {
    return false;
  }
  return std::none_of(pairs.begin(), pairs.end(), [](const PlacedPairStats& p) { return p.stats.timed_out; });
}

ResumedRun load_resumed_run(const std::filesystem::path& dir) {
  ResumedRun run;
  run.dir = dir;
  run.meta = read_json(dir / "meta.json", kMetaJsonRead);
  // A set of another command (barrier, contention, homes) has no pairs to continue.
  if (const std::optional<OutputKind> kind = output_kind_of(run.meta); kind && kind != OutputKind::Map)
    throw UsageError(fmt::format("--resume: {} holds a {} set (its meta.json says so); --resume continues a map "
                                 "(cumap --resume DIR), and cumap {} starts afresh",
                                 shown_path(dir), to_string(*kind), to_string(*kind)));
  // Only pairs.csv says which pairs and lines were measured.
  if (!json_fields::boolean(json_fields::member(run.meta, "options"), "pairs_csv", true))
    throw UsageError(fmt::format("--resume: {} was mapped with --no-pairs-csv: without pairs.csv nothing says "
                                 "which pairs it measured (map it again)",
                                 shown_path(dir)));
  run.homes = read_json(dir / "homes.json", kHomesJsonRead);
  const std::string pairs = read_text(dir / "pairs.csv", kPairsCsvRead);
  try {
    run.pairs = parse_pairs_csv(pairs);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("--resume: {}: {}", shown_path(dir / "pairs.csv"), e.what()));
  }
  return run;
}

Options resumed_options(const ResumedRun& run, const Options& given, const std::map<std::string, std::string>& typed) {
  if (const auto difference = first_typed_difference(run.meta, given, typed))
    throw UsageError("--resume: " + *difference);
  Options o;
  try {
    o = options_from_json(run.meta["options"]);
    validate_options(o);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("--resume: {}: {}", shown_path(run.dir / "meta.json"), e.what()));
  }
  // Where and how loudly are this command's, and which files it keeps; so is
  // --max-streams, which no meta.json records.
  o.quiet = given.quiet;
  o.replace = given.replace;
  o.max_streams = given.max_streams;
  o.pairs_csv = given.pairs_csv;
  o.resume_dir = given.resume_dir;
  o.out_dir = given.resume_dir;  // a resumed run completes the files where they are
  // Whatever this version records that the earlier one did not (or the other
  // way round) is a difference too.
  if (const auto difference = first_option_difference(run.meta, o)) throw UsageError("--resume: " + *difference);
  return o;
}

void check_resumed_pairs(const ResumedRun& run, const std::vector<int>& units, const MapSettings& settings,
                         const Options& options) {
  const bool across = ids_span_devices(units);
  const int passes = settings.has_homes() ? settings.lines_per_class : 1;
  const std::map<int, RecordedLines> homes = settings.has_homes() ? recorded_lines(run) : std::map<int, RecordedLines>{};
  std::set<std::tuple<Placement, int, int, int, int, int>> seen;  // placement, a, b, flags' device, class, pass
  for (const PlacedPairStats& row : run.pairs) {
    const PairStats& p = row.stats;
    const auto refuse = [&](const std::string& why) {
      throw UsageError(fmt::format("{}: {}; it cannot be part of this run", row_name(run, row, across), why));
    };
    for (int u : {p.a, p.b})
      if (!std::binary_search(units.begin(), units.end(), u))
        refuse(fmt::format("unit {} is not one this run maps (units {})", format_unit_id(u, across),
                           printable_excerpt(format_unit_list(units), 80)));
    if (!settings.ordered && p.a > p.b) refuse("an unordered run measures each pair once, the lower unit first");
    if (row.via != settings.via)
      refuse(fmt::format("it was measured via {}, this run measures via {}", to_string(row.via), to_string(settings.via)));
    if (std::find(settings.placements.begin(), settings.placements.end(), row.placement) == settings.placements.end())
      refuse("this run does not measure that placement");
    const int device_a = unit_ref(p.a, options.device).device, device_b = unit_ref(p.b, options.device).device;
    const int pair_passes = device_a == device_b || !settings.has_homes() ? passes : settings.cross_lines;
    if (p.pass >= pair_passes) refuse(fmt::format("pass {} is past the {} line(s) per class", p.pass, pair_passes));
    if (p.flag_device != device_a && p.flag_device != device_b)
      refuse(fmt::format("its flags are on device {}, which holds neither unit", p.flag_device));
    if (!p.timed_out && p.iters != settings.iters)
      refuse(fmt::format("{} round trips per sample, the run measures {}", p.iters, settings.iters));
    if (!p.timed_out && p.rtt_ns.count > options.samples)
      refuse(fmt::format("{} samples, the run takes {}", p.rtt_ns.count, options.samples));
    if (!seen.emplace(row.placement, p.a, p.b, p.flag_device, p.home_class, p.pass).second)
      refuse("the same pair, class and pass is on an earlier line too");
    if (!settings.has_homes()) continue;  // flags in shared memory: no classes, no lines
    // Its class is one its flags' device has, its first flag on a line of
    // that class, its second on a probed line.
    const auto h = homes.find(p.flag_device);
    if (h == homes.end()) refuse(fmt::format("homes.json has no flag lines of device {}", p.flag_device));
    if (p.home_class >= h->second.class_count)
      refuse(fmt::format("home class {} does not exist (homes.json has {})", p.home_class, h->second.class_count));
    const auto line_of = [](std::uint64_t flag) { return flag - flag % protocol::kLineBytes; };
    const auto first = h->second.class_of_line.find(line_of(p.first_flag));
    if (first == h->second.class_of_line.end() || first->second != p.home_class)
      refuse(fmt::format("its first flag ({}) is not on a flag line of home class {}", p.first_flag, p.home_class));
    if (!h->second.class_of_line.contains(line_of(p.second_flag)))
      refuse(fmt::format("its second flag ({}) is not on a flag line", p.second_flag));
  }
}

void check_same_homes(const ResumedRun& run, const RunHomes& homes) {
  // homes.json holds one device's homes, or {"devices": [...]} (meta_json.hpp, homes_json).
  const nlohmann::json none = nlohmann::json::object();
  try {
    for (const HomesResult& h : homes) {
      const nlohmann::json* device = &run.homes;
      if (run.homes.contains("devices")) {
        device = &none;
        for (const nlohmann::json& d : run.homes["devices"])
          if (json_fields::exact<int>(json_fields::member(d, "device")) == h.device) device = &d;
      }
      const nlohmann::json& recorded = device->value("line_class", none);
      for (std::size_t l = 0; l < h.table.lines.size(); ++l) {
        const std::string key = std::to_string(h.table.lines[l]);
        if (!recorded.contains(key) || recorded[key] != h.classes.line_class[l])
          throw UsageError(fmt::format(
              "--resume: home discovery found other classes of flag lines than the earlier run did ({}line {} was "
              "class {}, is {}; {} class(es) now): its pairs cannot be combined with new ones; start a new run",
              homes.size() > 1 ? fmt::format("GPU {} ", h.device) : std::string(), key,
              recorded.contains(key) ? printable_excerpt(recorded[key].dump(), 20) : "missing",
              h.classes.line_class[l], h.classes.class_count));
      }
    }
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("--resume: {} is not as cumap writes it", shown_path(run.dir / "homes.json")));
  }
}

}  // namespace cumap::cli
