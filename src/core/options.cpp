// Options as they appear on the command line and in the outputs: the names
// of the enums, and every option by name for meta.json.
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "cumap/backend.hpp"
#include "cumap/options.hpp"
#include "cumap/protocol.hpp"
#include "cumap/error.hpp"
#include "core/printable.hpp"

namespace cumap {

std::string_view to_string(Placement p) {
  switch (p) {
    case Placement::SameLine: return "same-line";
    case Placement::SplitLine: return "split-line";
    case Placement::CrossHome: return "cross-home";
  }
  return "?";
}

Placement placement_from_string(std::string_view name) {
  for (Placement p : {Placement::SameLine, Placement::SplitLine, Placement::CrossHome})
    if (to_string(p) == name) return p;
  throw UsageError("unknown placement \"" + printable_excerpt(name) + "\"");
}

std::string_view to_string(BackendKind k) {
  switch (k) {
    case BackendKind::Auto: return "auto";
    case BackendKind::Cpu: return "cpu";
    case BackendKind::Cuda: return "cuda";
    case BackendKind::Hip: return "hip";
  }
  return "?";
}

BackendFacts backend_facts(BackendKind kind) {
  BackendFacts f;
  switch (kind) {
    case BackendKind::Cpu: f.several_devices = false; break;  // the machine's cores are its one device
    case BackendKind::Cuda: f.spans_devices = true; break;    // peer memory and system-scope atomics
    case BackendKind::Hip:
      f.unit_choice = true;  // a CU or a WGP
      f.stream_budget = true;
      break;
    case BackendKind::Auto: break;
  }
  return f;
}

BackendKind backend_kind_from_string(std::string_view name) {
  for (BackendKind k : {BackendKind::Auto, BackendKind::Cpu, BackendKind::Cuda, BackendKind::Hip})
    if (to_string(k) == name) return k;
  throw UsageError("unknown backend \"" + printable_excerpt(name) + "\"");
}

std::string_view to_string(Probe p) {
  switch (p) {
    case Probe::Cas: return "cas";
    case Probe::Exch: return "exch";
    case Probe::AcqRel: return "acq-rel";
    case Probe::Volatile: return "volatile";
    case Probe::Mbarrier: return "mbarrier";
  }
  return "?";
}

std::string_view to_string(UnitOrder o) {
  switch (o) {
    case UnitOrder::Index: return "index";
    case UnitOrder::Topology: return "topology";
  }
  return "?";
}

std::string_view to_string(ScheduleKind k) {
  switch (k) {
    case ScheduleKind::Auto: return "auto";
    case ScheduleKind::Serial: return "serial";
    case ScheduleKind::Concurrent: return "concurrent";
  }
  return "?";
}

std::string_view to_string(Path p) {
  switch (p) {
    case Path::Global: return "global";
    case Path::Dsm: return "dsm";
  }
  return "?";
}

std::string_view to_string(FlagOn f) {
  switch (f) {
    case FlagOn::A: return "a";
    case FlagOn::B: return "b";
    case FlagOn::Both: return "both";
  }
  return "?";
}

namespace {

std::string_view hip_unit_name(HipUnit u) { return u == HipUnit::Wgp ? "wgp" : "cu"; }

}  // namespace

nlohmann::json to_json(const Options& o) {
  nlohmann::json placements = nlohmann::json::array();
  for (Placement p : o.placements) placements.push_back(to_string(p));
  return {
      {"placements", placements},
      {"backend", to_string(o.backend)},
      {"device", o.device},
      {"devices", o.devices_spec},
      {"flag_on", to_string(o.flag_on)},
      {"units_spec", o.units_spec},
      {"iters", o.iters ? nlohmann::json(*o.iters) : nlohmann::json()},  // null: the backend's
      {"samples", o.samples},
      {"warmup", o.warmup},
      {"timeout_ms", o.timeout_ms},
      {"ordered", o.ordered},
      {"out_dir", o.out_dir.string()},
      {"quiet", o.quiet},
      {"flush_cache", o.flush_cache},
      {"rotating_count", o.lines_per_class ? nlohmann::json(*o.lines_per_class) : nlohmann::json()},  // null: the backend's
      {"cross_lines", o.cross_lines ? nlohmann::json(*o.cross_lines) : nlohmann::json()},
      {"schedule", to_string(o.schedule)},
      {"concurrency", o.concurrency},
      {"check_pairs", o.check_pairs},
      {"check_max_rel_diff", o.check_max_rel_diff},
      {"via", to_string(o.via)},
      {"cross_home", o.cross_home},
      {"home_lines", o.home_lines},
      {"home_chain", o.home_chain},
      {"home_stride", o.home_stride},
      {"home_serial", o.home_serial},
      {"line_correction", o.line_correction},
      {"flag_offset", o.flag_offset},
      {"l2_persist", o.l2_persist},
      {"probe", to_string(o.probe)},
      {"order", to_string(o.order)},
      {"colormap", o.colormap},
      {"hip_unit", hip_unit_name(o.hip_unit)},
  };
}

namespace {

// Reads meta.json's "options" back (options_from_json): each value must have
// the type and range to_json gives it; UsageError naming the key otherwise.
class RecordedOptions {
 public:
  explicit RecordedOptions(const nlohmann::json& j) : j_(j) {}

  const nlohmann::json& at(const char* key) const {
    // A key this cumap writes and the file lacks: an earlier cumap wrote
    // it, whose measurements this one would not extend alike.
    if (!j_.contains(key))
      throw UsageError(fmt::format("the option \"{}\" is not recorded: an earlier version of cumap made this run, "
                                   "and this one cannot complete it (measure it again)",
                                   key));
    return j_.at(key);
  }
  [[noreturn]] void refuse(const char* key, std::string_view what) const {
    throw UsageError(fmt::format("the option \"{}\" is recorded as {}, not {}", key,
                                 printable_excerpt(j_.at(key).dump(), 60), what));
  }
  bool flag(const char* key) const {
    if (!at(key).is_boolean()) refuse(key, "true or false");
    return at(key).get<bool>();
  }
  std::string text(const char* key) const {
    if (!at(key).is_string()) refuse(key, "a string");
    return at(key).get<std::string>();
  }
  // A whole number (JSON integer) from `low` to `high`; doubles such as
  // 1e300 are not converted.
  std::int64_t whole(const char* key, std::int64_t low, std::int64_t high) const {
    const nlohmann::json& v = at(key);
    const bool in_range = v.is_number_unsigned()  ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(high)
                          : v.is_number_integer() ? v.get<std::int64_t>() >= low && v.get<std::int64_t>() <= high
                                                  : false;
    if (!v.is_number_integer() || !in_range) refuse(key, fmt::format("a whole number from {} to {}", low, high));
    return v.get<std::int64_t>();
  }
  int whole_int(const char* key) const {
    return static_cast<int>(whole(key, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  }
  // null: left to the backend.
  std::optional<int> optional_int(const char* key) const {
    if (at(key).is_null()) return std::nullopt;
    return whole_int(key);
  }
  double number(const char* key) const {
    if (!at(key).is_number()) refuse(key, "a number");
    return at(key).get<double>();
  }
  // One of `values`, by the name to_string gives it.
  template <typename Enum, std::size_t N>
  Enum named(const char* key, const std::array<Enum, N>& values) const {
    const std::string name = text(key);
    for (Enum v : values)
      if (to_string(v) == name) return v;
    refuse(key, "a name this cumap knows");
  }

 private:
  const nlohmann::json& j_;
};

}  // namespace

Options options_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw UsageError("the options are not recorded as an object");
  const RecordedOptions r(j);
  Options o;
  if (!r.at("placements").is_array() || r.at("placements").empty()) r.refuse("placements", "a list of placements");
  o.placements.clear();
  for (const nlohmann::json& p : r.at("placements")) {
    if (!p.is_string()) r.refuse("placements", "a list of placement names");
    o.placements.push_back(placement_from_string(p.get<std::string>()));
  }
  o.backend = r.named("backend", std::array{BackendKind::Auto, BackendKind::Cpu, BackendKind::Cuda, BackendKind::Hip});
  o.device = r.whole_int("device");
  o.devices_spec = r.text("devices");
  o.flag_on = r.named("flag_on", std::array{FlagOn::A, FlagOn::B, FlagOn::Both});
  o.units_spec = r.text("units_spec");
  o.iters = r.optional_int("iters");
  o.samples = r.whole_int("samples");
  o.warmup = r.whole_int("warmup");
  o.timeout_ms = r.number("timeout_ms");
  o.ordered = r.flag("ordered");
  o.flush_cache = r.flag("flush_cache");
  o.lines_per_class = r.optional_int("rotating_count");
  o.cross_lines = r.optional_int("cross_lines");
  o.schedule = r.named("schedule", std::array{ScheduleKind::Auto, ScheduleKind::Serial, ScheduleKind::Concurrent});
  o.concurrency = r.whole_int("concurrency");
  o.check_pairs = r.whole_int("check_pairs");
  o.check_max_rel_diff = r.number("check_max_rel_diff");
  o.via = r.named("via", std::array{Path::Global, Path::Dsm});
  o.cross_home = r.flag("cross_home");
  o.home_lines = r.whole_int("home_lines");
  o.home_chain = r.whole_int("home_chain");
  o.home_stride = r.whole_int("home_stride");
  o.home_serial = r.flag("home_serial");
  o.line_correction = r.flag("line_correction");
  o.flag_offset = static_cast<std::uint64_t>(r.whole("flag_offset", 0, std::numeric_limits<std::int64_t>::max()));
  o.l2_persist = r.flag("l2_persist");
  o.probe = r.named("probe", std::array{Probe::Cas, Probe::Exch, Probe::AcqRel, Probe::Volatile, Probe::Mbarrier});
  o.order = r.named("order", std::array{UnitOrder::Index, UnitOrder::Topology});
  o.colormap = r.text("colormap");
  const std::string hip_unit = r.text("hip_unit");
  if (hip_unit != "cu" && hip_unit != "wgp") r.refuse("hip_unit", "cu or wgp");
  o.hip_unit = hip_unit == "wgp" ? HipUnit::Wgp : HipUnit::Cu;
  return o;
}

// Kernels receive --probe as protocol::ProbeCode; the two numberings are one.
static_assert(static_cast<int>(Probe::Cas) == protocol::kCas);
static_assert(static_cast<int>(Probe::Exch) == protocol::kExch);
static_assert(static_cast<int>(Probe::AcqRel) == protocol::kAcqRel);
static_assert(static_cast<int>(Probe::Volatile) == protocol::kVolatile);
static_assert(static_cast<int>(Probe::Mbarrier) == protocol::kMbarrier);

}  // namespace cumap
