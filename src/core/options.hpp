#pragma once
// The names of the map's enums (include/cumap/options.hpp), one table each:
// what meta.json records, --help lists and the command line accepts.
#include <array>
#include <string_view>

#include "core/enum_names.hpp"
#include "cumap/options.hpp"

namespace cumap {

template <>
struct NamesOf<Placement> {
  static constexpr NameTable<EnumName<Placement>, 3> table{
      "placement",
      {{{Placement::SameLine, "same-line"}, {Placement::SplitLine, "split-line"}, {Placement::CrossHome, "cross-home"}}}};
};

// A kind of backend, its name and what it takes before one is opened.
struct BackendKindName {
  BackendKind value;
  std::string_view name;
  BackendFacts facts;
};

template <>
struct NamesOf<BackendKind> {
  static constexpr NameTable<BackendKindName, 4> table{
      "backend",
      {{{BackendKind::Auto, "auto", {}},
        {BackendKind::Cpu, "cpu", {.several_devices = false, .host_cores = true}},  // the machine's cores: one device
        {BackendKind::Cuda, "cuda", {.spans_devices = true}},   // peer memory and system-scope atomics
        {BackendKind::Hip, "hip", {.unit_choice = true, .stream_budget = true}}}}};  // a CU or a WGP; queues
};

template <>
struct NamesOf<Probe> {
  static constexpr NameTable<EnumName<Probe>, 5> table{"probe",
                                                       {{{Probe::Cas, "cas"},
                                                         {Probe::Exch, "exch"},
                                                         {Probe::AcqRel, "acq-rel"},
                                                         {Probe::Volatile, "volatile"},
                                                         {Probe::Mbarrier, "mbarrier"}}}};
};

template <>
struct NamesOf<UnitOrder> {
  static constexpr NameTable<EnumName<UnitOrder>, 2> table{
      "order", {{{UnitOrder::Index, "index"}, {UnitOrder::Topology, "topology"}}}};
};

template <>
struct NamesOf<HipUnit> {
  static constexpr NameTable<EnumName<HipUnit>, 2> table{"unit", {{{HipUnit::Cu, "cu"}, {HipUnit::Wgp, "wgp"}}}};
};

template <>
struct NamesOf<ScheduleKind> {
  static constexpr NameTable<EnumName<ScheduleKind>, 3> table{
      "schedule",
      {{{ScheduleKind::Auto, "auto"}, {ScheduleKind::Serial, "serial"}, {ScheduleKind::Concurrent, "concurrent"}}}};
};

template <>
struct NamesOf<Path> {
  static constexpr NameTable<EnumName<Path>, 2> table{"path", {{{Path::Global, "global"}, {Path::Dsm, "dsm"}}}};
};

template <>
struct NamesOf<FlagOn> {
  static constexpr NameTable<EnumName<FlagOn>, 3> table{
      "flag holder", {{{FlagOn::A, "a"}, {FlagOn::B, "b"}, {FlagOn::Both, "both"}}}};
};

// The heatmaps' colour maps by name (Options::colormap is the name itself:
// the pictures' own table knows the colours).
inline constexpr std::array<std::string_view, 3> kColormapNames{"viridis", "magma", "cividis"};

}  // namespace cumap
