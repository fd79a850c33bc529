#pragma once
// The names of the map's enums (include/cumap/options.hpp), one table each:
// what meta.json records, --help lists and the command line accepts.
#include <array>
#include <string_view>

#include "core/enum_names.hpp"
#include "cumap/options.hpp"

namespace cumap {

template <>
inline constexpr auto kEnumNames<Placement> = enum_names<Placement>("placement", {
    {Placement::SameLine, "same-line"}, {Placement::SplitLine, "split-line"}, {Placement::CrossHome, "cross-home"}});

// A kind of backend, its name and what it takes before one is opened.
struct BackendKindName {
  BackendKind value;
  std::string_view name;
  BackendFacts facts;
};

template <>
inline constexpr NameTable<BackendKindName, 4> kEnumNames<BackendKind>{
    "backend",
    {{{BackendKind::Auto, "auto", {}},
      {BackendKind::Cpu, "cpu", {.several_devices = false, .host_cores = true}},  // the machine's cores: one device
      {BackendKind::Cuda, "cuda", {.spans_devices = true}},   // peer memory and system-scope atomics
      {BackendKind::Hip, "hip", {.unit_choice = true, .stream_budget = true}}}}};  // a CU or a WGP; queues

template <>
inline constexpr auto kEnumNames<Probe> = enum_names<Probe>("probe", {
    {Probe::Cas, "cas"}, {Probe::Exch, "exch"}, {Probe::AcqRel, "acq-rel"}, {Probe::Volatile, "volatile"},
    {Probe::Mbarrier, "mbarrier"}});

template <>
inline constexpr auto kEnumNames<UnitOrder> = enum_names<UnitOrder>("order", {
    {UnitOrder::Index, "index"}, {UnitOrder::Topology, "topology"}});

template <>
inline constexpr auto kEnumNames<HipUnit> = enum_names<HipUnit>("unit", {{HipUnit::Cu, "cu"}, {HipUnit::Wgp, "wgp"}});

template <>
inline constexpr auto kEnumNames<ScheduleKind> = enum_names<ScheduleKind>("schedule", {
    {ScheduleKind::Auto, "auto"}, {ScheduleKind::Serial, "serial"}, {ScheduleKind::Concurrent, "concurrent"}});

template <>
inline constexpr auto kEnumNames<Path> = enum_names<Path>("path", {{Path::Global, "global"}, {Path::Dsm, "dsm"}});

template <>
inline constexpr auto kEnumNames<FlagOn> = enum_names<FlagOn>("flag holder", {
    {FlagOn::A, "a"}, {FlagOn::B, "b"}, {FlagOn::Both, "both"}});

// The heatmaps' colour maps by name (Options::colormap is the name itself:
// the pictures' own table knows the colours).
inline constexpr std::array<std::string_view, 3> kColormapNames{"viridis", "magma", "cividis"};

}  // namespace cumap
