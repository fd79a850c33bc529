// Names of the enums as they appear on the command line and in the outputs.
#include <string>
#include <string_view>

#include "cumap/backend.hpp"
#include "cumap/options.hpp"
#include "cumap/placement.hpp"

namespace cumap {

std::string_view to_string(Placement p) {
  switch (p) {
    case Placement::SameLine: return "same-line";
    case Placement::SplitLine: return "split-line";
  }
  return "?";
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

MeasureSpec measure_spec(const Options& o, Placement p) {
  MeasureSpec s;
  s.placement = p;
  s.iters = o.iters;
  s.samples = o.samples;
  s.warmup = o.warmup;
  s.timeout_ms = o.timeout_ms;
  s.ordered = o.ordered;
  s.flush_cache = o.flush_cache;
  s.rotating_count = o.rotating_count;
  s.l2_persist = o.l2_persist;
  s.probe = o.probe;
  return s;
}

}  // namespace cumap
