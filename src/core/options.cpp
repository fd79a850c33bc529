// Options as they appear on the command line and in the outputs: the names
// of the enums, and every option by name for meta.json.
#include <string>
#include <string_view>

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
      {"schedule", to_string(o.schedule)},
      {"concurrency", o.concurrency},
      {"check_pairs", o.check_pairs},
      {"check_max_rel_diff", o.check_max_rel_diff},
      {"via", to_string(o.via)},
      {"cross_home", o.cross_home},
      {"home_lines", o.home_lines},
      {"home_chain", o.home_chain},
      {"home_stride", o.home_stride},
      {"line_correction", o.line_correction},
      {"flag_offset", o.flag_offset},
      {"l2_persist", o.l2_persist},
      {"probe", to_string(o.probe)},
      {"order", to_string(o.order)},
      {"colormap", o.colormap},
      {"hip_unit", hip_unit_name(o.hip_unit)},
  };
}

// Kernels receive --probe as protocol::ProbeCode; the two numberings are one.
static_assert(static_cast<int>(Probe::Cas) == protocol::kCas);
static_assert(static_cast<int>(Probe::Exch) == protocol::kExch);
static_assert(static_cast<int>(Probe::AcqRel) == protocol::kAcqRel);
static_assert(static_cast<int>(Probe::Volatile) == protocol::kVolatile);
static_assert(static_cast<int>(Probe::Mbarrier) == protocol::kMbarrier);

}  // namespace cumap
