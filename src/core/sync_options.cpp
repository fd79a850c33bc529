// The words of `cumap barrier` and `cumap contention` (implementations,
// operations, participant sets, counter homes) and their options for meta.json.
#include "core/sync_options.hpp"

#include <string>

#include "core/printable.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

template <typename Enum, std::size_t N>
Enum from_string(std::string_view name, const Enum (&all)[N], std::string_view what) {
  std::string known;
  for (Enum e : all) {
    if (to_string(e) == name) return e;
    known += (known.empty() ? "" : ", ") + std::string(to_string(e));
  }
  throw UsageError("unknown " + std::string(what) + " \"" + printable_excerpt(name) + "\" (known: " + known + ")");
}

constexpr BarrierImpl kImpls[] = {BarrierImpl::Counter, BarrierImpl::Flag, BarrierImpl::TwoLevel,
                                  BarrierImpl::Platform};
constexpr ContentionOp kOps[] = {ContentionOp::Cas, ContentionOp::Add};
constexpr ParticipantSet kSets[] = {ParticipantSet::OneSide, ParticipantSet::Alternating, ParticipantSet::OneGroup,
                                    ParticipantSet::Spread};
constexpr CounterHome kHomes[] = {CounterHome::Near, CounterHome::Far};

template <typename Enum>
nlohmann::json names(const std::vector<Enum>& values) {
  nlohmann::json j = nlohmann::json::array();
  for (Enum v : values) j.push_back(to_string(v));
  return j;
}

}  // namespace

std::string_view to_string(BarrierImpl i) {
  switch (i) {
    case BarrierImpl::Counter: return "counter";
    case BarrierImpl::Flag: return "flag";
    case BarrierImpl::TwoLevel: return "two-level";
    case BarrierImpl::Platform: return "platform";
  }
  return "?";
}

std::string_view to_string(ContentionOp o) {
  switch (o) {
    case ContentionOp::Cas: return "cas";
    case ContentionOp::Add: return "add";
  }
  return "?";
}

std::string_view to_string(ParticipantSet s) {
  switch (s) {
    case ParticipantSet::OneSide: return "one-side";
    case ParticipantSet::Alternating: return "alternating";
    case ParticipantSet::OneGroup: return "one-gpc";
    case ParticipantSet::Spread: return "spread";
  }
  return "?";
}

std::string_view to_string(CounterHome h) {
  switch (h) {
    case CounterHome::Near: return "near";
    case CounterHome::Far: return "far";
  }
  return "?";
}

BarrierImpl barrier_impl_from_string(std::string_view name) { return from_string(name, kImpls, "barrier"); }
ContentionOp contention_op_from_string(std::string_view name) { return from_string(name, kOps, "operation"); }
ParticipantSet participant_set_from_string(std::string_view name) {
  return from_string(name, kSets, "participant set");
}
CounterHome counter_home_from_string(std::string_view name) { return from_string(name, kHomes, "counter home"); }

nlohmann::json to_json(const SyncOptions& o) {
  const nlohmann::json common = to_json(o.common);
  nlohmann::json j = nlohmann::json::object();
  // The map options a sync run reads; the others keep their defaults and would only mislead.
  for (const char* key : {"backend", "device", "units_spec", "home_lines", "home_chain", "home_stride", "flag_offset",
                          "timeout_ms", "probe", "out_dir", "quiet", "hip_unit"})
    j[key] = common.at(key);
  // Recorded where given, so that a run of one GPU records what it always did.
  if (!o.common.devices_spec.empty()) j["devices"] = o.common.devices_spec;
  j["command"] = o.contention ? "contention" : "barrier";
  if (o.contention) {
    j["ops"] = names(o.ops);
    j["ops_per_batch"] = o.ops_per_batch;
  } else {
    j["impls"] = names(o.impls);
  }
  j["sets"] = names(o.sets);
  j["homes"] = names(o.homes);
  j["k"] = {{"values", o.k.values}, {"every_unit", o.k.every_unit}, {"doubling", o.k.doubling}};
  j["episodes"] = o.episodes;
  j["warmup"] = o.warmup;
  j["launches"] = o.launches ? nlohmann::json(*o.launches) : nlohmann::json();
  return j;
}

}  // namespace cumap
