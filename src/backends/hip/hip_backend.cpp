#include "backends/hip/hip_backend.hpp"

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/hip/cu_mask.hpp"
#include "backends/hip/hw_id.hpp"
#include "backends/hip/pair_timing.hpp"
#include "backends/hip/stream_pool.hpp"
#include "cumap/error.hpp"

namespace cumap {
namespace {

// Each rotating copy of the flags gets two pages of its own, so copies never
// share a page (or TLB entry) and the split-line partner sits a page away.
constexpr std::size_t kPageBytes = 4096;
constexpr std::size_t kCopyStrideBytes = 2 * kPageBytes;
constexpr int kSameLineOffsetWords = 1;                        // adjacent words, one 128-byte line
constexpr int kSplitLineOffsetWords = kPageBytes / sizeof(std::uint32_t);  // another line and page

class HipBackend final : public Backend {
 public:
  HipBackend(std::unique_ptr<HipRuntime> runtime, const Options& options);
  ~HipBackend() override;

  DeviceInfo device() const override;
  std::vector<int> units() const override;
  Topology topology() override;
  std::vector<PairMeasurement> measure(const Schedule& schedule, const MeasureSpec& spec,
                                       const ProgressFn& progress) override;

 private:
  HipDeviceProperties probe_device(int device);
  void ensure_flag_copies(int copies);
  PingPongResult run_pair(const Pair& pair, bool ordered, int copy, const MeasureSpec& spec);

  // Declared first so that it outlives the pool, which destroys streams through it.
  std::unique_ptr<HipRuntime> runtime_;
  HipUnit unit_;
  HipDeviceProperties props_;
  HwIdLayout layout_;
  std::string unit_name_;
  std::unique_ptr<StreamPool> pool_;
  HwIdChecker checker_;
  std::optional<Topology> topology_;
  std::vector<std::string> notes_;
  HipBuffer flags_ = 0;
  int flag_copies_ = 0;
};

HipBackend::HipBackend(std::unique_ptr<HipRuntime> runtime, const Options& options)
    : runtime_(std::move(runtime)),
      unit_(options.hip_unit),
      props_(probe_device(options.device)),
      layout_(hw_id_layout_for_arch(props_.gcn_arch_name)),
      unit_name_(hip_unit_name(unit_)),
      pool_(std::make_unique<StreamPool>(
          *runtime_,
          [unit = unit_, cus = props_.cu_count](int u) { return cu_mask_for_unit(unit, u, cus); },
          unit_name_)),
      checker_(layout_, unit_, unit_name_) {
  if (unit_ == HipUnit::Wgp && layout_ == HwIdLayout::Gfx9) {
    throw UsageError(fmt::format("--unit wgp needs an RDNA GPU (gfx10 or newer); {} has CUs only",
                                 props_.gcn_arch_name));
  }
  if (props_.wall_clock_hz <= 0.0) {
    throw RuntimeFailure(fmt::format("{}: the HIP runtime reports no wall-clock rate", props_.name));
  }
}

HipBackend::~HipBackend() {
  pool_.reset();
  if (flags_ != 0) {
    try {
      runtime_->free_flags(flags_);
    } catch (...) {
      // Nothing useful to do in a destructor; the process is ending anyway.
    }
  }
}

HipDeviceProperties HipBackend::probe_device(int device) {
  const int count = runtime_->device_count();
  if (count == 0) {
    throw UsageError(fmt::format("no AMD GPU found (HIP runtime reports {} devices)", count));
  }
  if (device < 0 || device >= count) {
    throw UsageError(fmt::format("device {} does not exist: the HIP runtime reports {} device(s)",
                                 device, count));
  }
  runtime_->select_device(device);
  return runtime_->properties(device);
}

DeviceInfo HipBackend::device() const {
  DeviceInfo d;
  d.backend = "hip";
  d.name = props_.name;
  d.unit_name = unit_name_;
  d.unit_count = hip_unit_count(unit_, props_.cu_count);
  d.clock_source = "wall_clock64 (s_memrealtime) for ns; clock64 (s_memtime, shader clock) for cycles";
  d.clock_hz = props_.shader_clock_hz;
  d.runtime_version = props_.runtime_version;
  d.driver_version = props_.driver_version;
  d.extra["gcn_arch_name"] = props_.gcn_arch_name;
  d.extra["cu_count"] = props_.cu_count;
  d.extra["wall_clock_hz"] = props_.wall_clock_hz;
  d.extra["wall_clock_rate_source"] = props_.wall_clock_rate_source;
  d.extra["hw_id_register"] = layout_ == HwIdLayout::Gfx9 ? "HW_ID" : "HW_ID1";
  // Known once the device refused a stream; null means it never did.
  d.extra["max_cu_masked_streams"] =
      pool_->limit() ? nlohmann::json(*pool_->limit()) : nlohmann::json(nullptr);
  d.extra["cu_masked_streams_peak"] = pool_->peak_alive();
  d.extra["hw_id_warnings"] = checker_.warnings();
  d.extra["notes"] = notes_;
  return d;
}

std::vector<int> HipBackend::units() const {
  std::vector<int> ids(static_cast<std::size_t>(hip_unit_count(unit_, props_.cu_count)));
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
  return ids;
}

Topology HipBackend::topology() {
  if (!topology_) {
    const std::vector<int> ids = units();
    std::vector<std::uint32_t> raw;
    raw.reserve(ids.size());
    for (int u : ids) {
      raw.push_back(runtime_->read_hw_id(pool_->acquire(u)));
      checker_.record(u, raw.back());
    }
    topology_ = hip_topology_from_hw_ids(ids, raw, layout_);
  }
  return *topology_;
}

void HipBackend::ensure_flag_copies(int copies) {
  if (copies <= flag_copies_) return;
  if (flags_ != 0) runtime_->free_flags(flags_);
  flags_ = runtime_->allocate_flags(static_cast<std::size_t>(copies) * kCopyStrideBytes);
  flag_copies_ = copies;
}

// One launch per pair, both directions inside every sample; run_ping_pong
// zeroes the flags first, so each pair counts its round trips from 0.
PingPongResult HipBackend::run_pair(const Pair& pair, bool ordered, int copy,
                                    const MeasureSpec& spec) {
  const auto [a_stream, b_stream] = pool_->acquire_pair(pair.a, pair.b);
  PingPongLaunch launch;
  launch.a_stream = a_stream;
  launch.b_stream = b_stream;
  launch.flags = flags_;
  launch.flags_offset_bytes = static_cast<std::size_t>(copy) * kCopyStrideBytes;
  launch.offset_words =
      spec.placement == Placement::SameLine ? kSameLineOffsetWords : kSplitLineOffsetWords;
  launch.iters = spec.iters;
  launch.a_share = a_share_of_sample(spec.iters, ordered);
  launch.warmup = spec.warmup;
  launch.samples = spec.samples;
  launch.wait_budget_ticks =
      static_cast<std::uint64_t>(spec.timeout_ms * 1e-3 * props_.wall_clock_hz) + 1;
  launch.probe = spec.probe;
  PingPongResult result = runtime_->run_ping_pong(launch);
  checker_.record(pair.a, result.a_hw_id);
  checker_.record(pair.b, result.b_hw_id);
  return result;
}

std::vector<PairMeasurement> HipBackend::measure(const Schedule& schedule, const MeasureSpec& spec,
                                                 const ProgressFn& progress) {
  if (spec.iters < 1 || spec.samples < 1 || spec.rotating_count < 1) {
    throw UsageError("iters, samples and rotating count must be at least 1");
  }
  if (spec.l2_persist)
    throw UsageError("--l2-persist needs the cuda backend: HIP has no persisting-L2 access window");
  ensure_flag_copies(spec.rotating_count);
  const HipClocks clocks{props_.wall_clock_hz, props_.shader_clock_hz};
  const std::size_t total = schedule.pairs.size() * static_cast<std::size_t>(spec.rotating_count);
  std::vector<PairMeasurement> out;
  out.reserve(total);
  bool clock_checked = false;
  for (int copy = 0; copy < spec.rotating_count; ++copy) {
    for (const Pair& pair : schedule.pairs) {
      if (spec.flush_cache) {
        runtime_->flush_icache();
        runtime_->flush_l2();
      }
      const PingPongResult result = run_pair(pair, schedule.ordered, copy, spec);
      if (!clock_checked && !result.timed_out) {
        // Checked once: a wrong rate is wrong for every pair alike.
        clock_checked = true;
        if (auto msg = wall_clock_disagreement(result, props_.wall_clock_hz)) {
          notes_.push_back(*msg);
        }
      }
      out.push_back(pair_measurement_from_result(pair, copy, result, spec.iters, clocks));
      if (progress) progress(out.size(), total);
    }
  }
  return out;
}

}  // namespace

std::unique_ptr<Backend> make_hip_backend_with_runtime(std::unique_ptr<HipRuntime> runtime,
                                                       const Options& options) {
  return std::make_unique<HipBackend>(std::move(runtime), options);
}

}  // namespace cumap
