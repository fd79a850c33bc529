// The words of `cumap barrier` and `cumap contention` (implementations,
// operations, participant sets, counter homes) and their options for meta.json.
#include "core/sync_options.hpp"

#include "core/option_table.hpp"

namespace cumap {

std::string_view to_string(BarrierImpl i) { return names_of<BarrierImpl>().name(i); }
std::string_view to_string(ContentionOp o) { return names_of<ContentionOp>().name(o); }
std::string_view to_string(ParticipantSet s) { return names_of<ParticipantSet>().name(s); }
std::string_view to_string(CounterHome h) { return names_of<CounterHome>().name(h); }

BarrierImpl barrier_impl_from_string(std::string_view name) { return names_of<BarrierImpl>().parse(name); }
ContentionOp contention_op_from_string(std::string_view name) { return names_of<ContentionOp>().parse(name); }
ParticipantSet participant_set_from_string(std::string_view name) { return names_of<ParticipantSet>().parse(name); }
CounterHome counter_home_from_string(std::string_view name) { return names_of<CounterHome>().parse(name); }

nlohmann::json to_json(const SyncOptions& o) {
  nlohmann::json j = recorded_options(sync_option_rows(), o.contention ? kContentionCommand : kBarrierCommand,
                                      o.common, &o);
  j["command"] = o.contention ? "contention" : "barrier";
  return j;
}

}  // namespace cumap
