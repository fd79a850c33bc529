// cumap::place::System: home discovery on several GPUs and across them, and
// the line for a flag that SMs of two GPUs share.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "core/stats.hpp"
#include "place/chip_state.hpp"
#include "place/errors.hpp"
#include "run/home_discovery.hpp"

namespace cumap::place {
namespace {

// [class][remote unit]: each other GPU's unit's median latency to the lines
// of each class of this GPU, over the link (from the remote table).
std::vector<std::vector<double>> remote_class_ns(const HomesResult& h) {
  std::vector<std::vector<double>> out(static_cast<std::size_t>(h.classes.class_count));
  std::vector<double> values;
  for (int c = 0; c < h.classes.class_count; ++c)
    for (std::size_t r = 0; r < h.remote.units.size(); ++r) {
      values.clear();
      for (std::size_t l = 0; l < h.remote.lines.size(); ++l)
        if (h.classes.line_class[l] == c && std::isfinite(h.remote.ns_at(r, l))) values.push_back(h.remote.ns_at(r, l));
      out[static_cast<std::size_t>(c)].push_back(summarize(values).median);
    }
  return out;
}

}  // namespace

System::System(std::shared_ptr<const State> state) : state_(std::move(state)) {}

System system_on(std::shared_ptr<Backend> backend, const std::vector<int>& gpus, const Options& options) {
  const DeviceInfo device = backend->device();
  std::vector<int> units = backend->units();
  std::sort(units.begin(), units.end());
  RunHomes homes = discover_homes(*backend, units, options, {});
  auto state = std::make_shared<System::State>();
  for (HomesResult& h : homes) {
    if (std::find(gpus.begin(), gpus.end(), h.device) == gpus.end()) continue;
    auto chip = std::make_shared<Chip::State>();
    chip->backend = backend;
    chip->gpu = h.device;
    for (const DeviceInfo::Gpu& g : device.gpus)
      if (g.ordinal == h.device) chip->serial = g.serial;
    chip->chain = options.home_chain;
    chip->sm_refs = h.table.units;
    chip->remote_units = h.remote.units;
    chip->remote_class_ns = remote_class_ns(h);
    chip->homes = std::move(h);
    index_sms(*chip);
    const int gpu = chip->gpu;
    state->chips.emplace(gpu, Chip(std::move(chip)));
  }
  return System(std::move(state));
}

System System::discover(const std::vector<int>& gpus) {
  return as_place_errors([&] {
    if (gpus.empty()) throw Error("System::discover: name the GPUs");
    DeviceSelection selection;
    selection.device = gpus.front();
    selection.devices = gpus;
    return system_on(std::shared_ptr<Backend>(make_backend(selection)), selection.devices, Options{});
  });
}

const Chip& System::chip(int gpu) const {
  const auto it = state_->chips.find(gpu);
  if (it == state_->chips.end()) throw Error(fmt::format("GPU {} is not one of this system's", gpu));
  return it->second;
}

double System::latency_ns(Sm sm, int memory_gpu, int home_class) const {
  const Chip& lines = chip(memory_gpu);
  if (sm.gpu == memory_gpu) return lines.latency_ns(sm.id, home_class);
  const Chip::State& s = lines.state();
  if (home_class < 0 || home_class >= lines.class_count())
    throw Error(fmt::format("GPU {} has {} home class(es); there is no class {}", memory_gpu, lines.class_count(),
                            home_class));
  const auto row = std::find(s.remote_units.begin(), s.remote_units.end(), UnitRef{sm.gpu, sm.id});
  if (row == s.remote_units.end())
    throw Error(fmt::format("SM {} of GPU {} did not reach GPU {}'s lines in home discovery", sm.id, sm.gpu,
                            memory_gpu));
  return s.remote_class_ns.at(static_cast<std::size_t>(home_class))
      .at(static_cast<std::size_t>(row - s.remote_units.begin()));
}

Line System::for_pair(const std::vector<LinePool*>& pools, Sm a, Sm b) const {
  LinePool* best_pool = nullptr;
  int best_class = -1;
  double best_ns = std::numeric_limits<double>::infinity();
  for (LinePool* pool : pools) {
    const int classes = chip(pool->gpu()).class_count();
    for (int c = 0; c < classes; ++c) {
      if (pool->left(c) == 0) continue;
      const double ns = latency_ns(a, pool->gpu(), c) + latency_ns(b, pool->gpu(), c);
      if (ns < best_ns) best_pool = pool, best_class = c, best_ns = ns;
    }
  }
  if (!best_pool) throw Error("every line of the pools given is handed out already");
  return best_pool->take(best_class);
}

}  // namespace cumap::place
