#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cumap/placement.hpp"

namespace cumap {

enum class BackendKind { Auto, Cpu, Cuda, Hip };
enum class Probe { Cas, Exch, AcqRel, Volatile };
enum class UnitOrder { Index, Topology };
enum class HipUnit { Cu, Wgp };

// Everything the user chose, filled by the CLI and passed down by const
// reference. Defaults live here so that tests and the CLI agree on them.
struct Options {
  std::vector<Placement> placements{Placement::SameLine, Placement::SplitLine};
  BackendKind backend = BackendKind::Auto;
  int device = 0;
  std::string units_spec;  // "" = every unit of the device; else e.g. "0-7,16"
  int iters = 100;         // round trips per sample
  int samples = 5;         // samples per pair
  int warmup = 20;         // round trips before timing starts
  double timeout_ms = 1000.0;  // budget of every wait loop
  bool ordered = false;        // measure a->b and b->a separately
  std::filesystem::path out_dir = "out";
  bool quiet = false;

  // Cold-cache and memory-behaviour controls.
  bool flush_cache = false;
  int rotating_count = 1;
  bool l2_persist = false;
  Probe probe = Probe::Cas;

  // Presentation.
  UnitOrder order = UnitOrder::Topology;
  std::string colormap = "viridis";
  HipUnit hip_unit = HipUnit::Cu;
};

std::string_view to_string(BackendKind k);
std::string_view to_string(Probe p);
std::string_view to_string(UnitOrder o);

}  // namespace cumap
