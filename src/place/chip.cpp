// cumap::place::Chip: home discovery on one GPU, and the home class of each
// line of memory a program owns, timed from every SM by the line probe the
// discovery itself uses.
#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "core/homes.hpp"
#include "cumap/error.hpp"
#include "cumap/protocol.hpp"
#include "place/chip_state.hpp"
#include "place/errors.hpp"
#include "run/home_discovery.hpp"

namespace cumap::place {
void index_sms(Chip::State& s) {
  s.sm_ids.clear();
  s.row_of_sm.clear();
  for (std::size_t r = 0; r < s.sm_refs.size(); ++r) {
    s.row_of_sm[s.sm_refs[r].unit] = r;
    s.sm_ids.push_back(s.sm_refs[r].unit);
  }
  std::sort(s.sm_ids.begin(), s.sm_ids.end());
}

namespace {

std::string serial_of(const DeviceInfo& device, int gpu) {
  for (const DeviceInfo::Gpu& g : device.gpus)
    if (g.ordinal == gpu) return g.serial;
  return "";
}

}  // namespace

Chip::Chip(std::shared_ptr<const State> state) : state_(std::move(state)) {}

Chip chip_on(std::shared_ptr<Backend> backend, int gpu, const Options& options) {
  auto s = std::make_shared<Chip::State>();
  s->gpu = gpu;
  s->serial = serial_of(backend->device(), gpu);
  s->chain = options.home_chain;
  std::vector<int> units;
  for (int id : backend->units())
    if (unit_ref(id, gpu).device == gpu) units.push_back(id);
  Options on_gpu = options;
  on_gpu.device = gpu;
  RunHomes homes = discover_homes(*backend, units, on_gpu, {});
  s->homes = std::move(homes.front());
  s->sm_refs = s->homes.table.units;
  index_sms(*s);
  s->backend = std::move(backend);
  return Chip(std::move(s));
}

Chip Chip::discover(int gpu) {
  return as_place_errors([&] {
    DeviceSelection selection;
    selection.device = gpu;
    return chip_on(std::shared_ptr<Backend>(make_backend(selection)), gpu, Options{});
  });
}

Chip Chip::load(const std::string& run_dir, int gpu) {
  return as_place_errors([&] {
    DeviceSelection selection;
    selection.device = gpu;
    return chip_from_run(std::shared_ptr<Backend>(make_backend(selection)), gpu, run_dir);
  });
}

int Chip::gpu() const { return state_->gpu; }
const std::string& Chip::serial() const { return state_->serial; }
int Chip::class_count() const { return state_->homes.classes.class_count; }
const std::vector<int>& Chip::sms() const { return state_->sm_ids; }

int Chip::side_of(int sm) const {
  const auto row = state_->row_of_sm.find(sm);
  return row == state_->row_of_sm.end() ? -1 : state_->homes.classes.unit_side.at(row->second);
}

double Chip::latency_ns(int sm, int home_class) const {
  const auto row = state_->row_of_sm.find(sm);
  if (row == state_->row_of_sm.end()) throw Error(fmt::format("GPU {} has no SM {}", state_->gpu, sm));
  if (home_class < 0 || home_class >= class_count())
    throw Error(fmt::format("GPU {} has {} home class(es); there is no class {}", state_->gpu, class_count(),
                            home_class));
  return state_->homes.classes.class_unit_ns.at(static_cast<std::size_t>(home_class)).at(row->second);
}

std::vector<int> Chip::side_table() const {
  std::vector<int> table(state_->sm_ids.empty() ? 0 : static_cast<std::size_t>(state_->sm_ids.back()) + 1, -1);
  for (int sm : state_->sm_ids) table[static_cast<std::size_t>(sm)] = side_of(sm);
  return table;
}

LinePool Chip::classify(const void* memory, std::size_t bytes) const {
  return as_place_errors([&] {
    if (memory == nullptr || bytes == 0) throw Error("classify: no memory given (a null pointer or zero bytes)");
    const auto address = reinterpret_cast<std::uintptr_t>(memory);
    const std::uintptr_t first = address / protocol::kLineBytes * protocol::kLineBytes;
    const std::uintptr_t end = (address + bytes + protocol::kLineBytes - 1) / protocol::kLineBytes * protocol::kLineBytes;
    auto pool = std::make_shared<LinePool::State>();
    pool->chip = state_;
    std::vector<int> classes((end - first) / protocol::kLineBytes, 0);
    // One class: every line is as near as any other, and nothing is timed.
    if (class_count() > 1) {
      LineProbePlan plan;
      plan.device = state_->gpu;
      plan.units = state_->sm_refs;
      plan.chain = state_->chain;
      plan.memory = first;
      plan.arena.bytes = end - first;
      for (std::uint64_t offset = 0; offset < end - first; offset += protocol::kLineBytes) plan.lines.push_back(offset);
      classes = nearest_classes(state_->homes.classes, state_->backend->probe_lines(plan, {}));
    }
    for (std::size_t l = 0; l < classes.size(); ++l)
      pool->lines.push_back({first + l * protocol::kLineBytes, state_->gpu, classes[l]});
    pool->handed_out.assign(pool->lines.size(), false);
    return LinePool(std::move(pool));
  });
}

}  // namespace cumap::place
