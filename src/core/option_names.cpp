// The names of the map's enums, each read from its table (core/options.hpp).
#include "core/options.hpp"
#include "cumap/protocol.hpp"

namespace cumap {

std::string_view to_string(Placement p) { return names_of<Placement>().name(p); }
std::string_view to_string(BackendKind k) { return names_of<BackendKind>().name(k); }
std::string_view to_string(Probe p) { return names_of<Probe>().name(p); }
std::string_view to_string(UnitOrder o) { return names_of<UnitOrder>().name(o); }
std::string_view to_string(ScheduleKind k) { return names_of<ScheduleKind>().name(k); }
std::string_view to_string(Path p) { return names_of<Path>().name(p); }
std::string_view to_string(FlagOn f) { return names_of<FlagOn>().name(f); }
std::string_view to_string(HipUnit u) { return names_of<HipUnit>().name(u); }

Placement placement_from_string(std::string_view name) { return names_of<Placement>().parse(name); }
BackendKind backend_kind_from_string(std::string_view name) { return names_of<BackendKind>().parse(name); }

BackendFacts backend_facts(BackendKind kind) { return names_of<BackendKind>().row(kind).facts; }

// Kernels receive --probe as protocol::ProbeCode; the two numberings are one.
static_assert(static_cast<int>(Probe::Cas) == protocol::kCas);
static_assert(static_cast<int>(Probe::Exch) == protocol::kExch);
static_assert(static_cast<int>(Probe::AcqRel) == protocol::kAcqRel);
static_assert(static_cast<int>(Probe::Volatile) == protocol::kVolatile);
static_assert(static_cast<int>(Probe::Mbarrier) == protocol::kMbarrier);

}  // namespace cumap
