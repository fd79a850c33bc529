#pragma once
// What the user chose for `cumap barrier` and `cumap contention`: which
// implementations (operations), participant sets, k, and counter homes, and
// how long. Filled by the CLI and passed down by const reference; defaults
// live here, once.
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/enum_names.hpp"
#include "cumap/options.hpp"
#include "cumap/sync.hpp"

namespace cumap {

// Which units take part, chosen by the structure cumap found. Each is an
// ordered sequence of units; a case of k takes its first k, so every prefix
// keeps the set's shape.
enum class ParticipantSet {
  OneSide,      // the units of one side (near one home class), by id
  Alternating,  // both (every) side in turn: side 0's first, side 1's first, ...
  OneGroup,     // the units of one topology group (a GPC, a CPU package), by id
  Spread,       // across the topology groups in turn (by sides, or evenly by id, without groups)
};
// Where the counter line lives relative to the participants (home discovery's table).
enum class CounterHome { Near, Far };

std::string_view to_string(ParticipantSet s);  // "one-side", "alternating", "one-gpc", "spread"
std::string_view to_string(CounterHome h);     // "near", "far"
ParticipantSet participant_set_from_string(std::string_view name);  // UsageError naming the choices for other words
CounterHome counter_home_from_string(std::string_view name);

// The names of the sync enums (those of sync.hpp too), one table each; the
// order is --help's.
template <>
inline constexpr auto kEnumNames<BarrierImpl> = enum_names<BarrierImpl>("barrier", {
    {BarrierImpl::Counter, "counter"}, {BarrierImpl::Flag, "flag"}, {BarrierImpl::TwoLevel, "two-level"},
    {BarrierImpl::Platform, "platform"}});
template <>
inline constexpr auto kEnumNames<ContentionOp> = enum_names<ContentionOp>("operation", {
    {ContentionOp::Cas, "cas"}, {ContentionOp::Add, "add"}});
template <>
inline constexpr auto kEnumNames<ParticipantSet> = enum_names<ParticipantSet>("participant set", {
    {ParticipantSet::OneSide, "one-side"}, {ParticipantSet::Alternating, "alternating"},
    {ParticipantSet::OneGroup, "one-gpc"}, {ParticipantSet::Spread, "spread"}});
template <>
inline constexpr auto kEnumNames<CounterHome> = enum_names<CounterHome>("counter home", {
    {CounterHome::Near, "near"}, {CounterHome::Far, "far"}});

// --k: explicit values and/or "all" (every unit of the set); unset: the
// doubling sweep 2, 4, 8, ... (contention from 1) and every unit.
struct KSweep {
  std::vector<int> values;  // ascending, distinct, each >= 1
  bool every_unit = true;
  bool doubling = true;     // the default sweep; false once --k names values
};

struct SyncOptions {
  // Device, units, home discovery, --probe, --timeout-ms, --out, --quiet:
  // the map's options of the same names, with the same defaults except --out.
  Options common;
  bool contention = false;  // `cumap contention` (else `cumap barrier`)
  std::vector<BarrierImpl> impls{BarrierImpl::Counter, BarrierImpl::Flag, BarrierImpl::TwoLevel,
                                 BarrierImpl::Platform};
  std::vector<ContentionOp> ops{ContentionOp::Cas, ContentionOp::Add};
  std::vector<ParticipantSet> sets{ParticipantSet::OneSide, ParticipantSet::Alternating, ParticipantSet::OneGroup,
                                   ParticipantSet::Spread};
  std::vector<CounterHome> homes{CounterHome::Near, CounterHome::Far};
  KSweep k;
  int episodes = 200;      // barrier: timed episodes; contention: timed batches per participant
  int warmup = 20;         // untimed episodes (batches) first
  int ops_per_batch = 64;  // contention: dependent operations per batch
  // Launches per case, each with its own counter line(s) of the chosen home.
  // A barrier's number is the mean over its launches, a contention case's
  // the median over every launch's operations. Unset: a barrier takes the
  // backend's choice (Capabilities::default_barrier_launches), contention
  // kContentionLaunches: on an H200 (bench/RESULTS.md, "A case over
  // launches") repeat contention runs agreed within 2 % for 126 of 128 cases
  // at one launch (largest 3.5 %, at k = 64), 128 at five (2.9 s a run).
  std::optional<int> launches;

  static constexpr int kContentionLaunches = 5;
  static constexpr const char* kBarrierOut = "out-barrier";
  static constexpr const char* kContentionOut = "out-contention";
};

// Every option by name, as meta.json records them ("options"), and which
// command took them.
nlohmann::json to_json(const SyncOptions& options);

}  // namespace cumap
