// CudaRuntime over the CUDA runtime API: every call checked with
// CUMAP_CUDA_CHECK, every launch synchronized and read back before it returns
// (a ping-pong launch when finish_pingpong returns). Several runtimes live in
// one process when a map spans GPUs: every entry point makes its GPU the
// current device first (OnDevice), since allocations, memsets and launches
// go to the current one.
#include "backends/cuda/cuda_runtime_real.hpp"

#include <cuda_runtime_api.h>

#include <optional>
#include <stdexcept>

#include "backends/cuda/cluster/cluster_launches.hpp"
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/device_buffer.hpp"
#include "backends/cuda/cluster/dsm_map.hpp"
#include "backends/cuda/l2_persistence.hpp"
#include "backends/cuda/launch_buffers.hpp"
#include "backends/cuda/launches.hpp"
#include "backends/cuda/sm_topology.hpp"
#include "backends/cuda/sync_launches.hpp"

namespace cumap::cuda {
namespace {

template <typename T>
T* as_pointer(DeviceAddress a) {
  return reinterpret_cast<T*>(a);
}

// Makes `ordinal` the calling thread's current device for a scope.
struct OnDevice {
  explicit OnDevice(int ordinal) { CUMAP_CUDA_CHECK(cudaSetDevice(ordinal)); }
};

// A sync launch prepared on this GPU and not yet finished: what its kernel
// reads and writes, kept from prepare_sync to finish_sync.
struct PendingSync {
  PendingSync(std::size_t sm_slots, std::size_t role_count, std::size_t leave_count, std::size_t batch_count,
              std::size_t participant_count)
      : participants(sm_slots),
        roles(std::max<std::size_t>(role_count, 1)),
        leave_cycles(leave_count),
        batch_cycles(batch_count),
        span_ns(2 * std::max<std::size_t>(participant_count, 1)),
        timed_out(1),
        leaves(leave_count),
        batches(batch_count),
        k(participant_count) {}
  DeviceBuffer<int> participants;
  DeviceBuffer<SyncRole> roles;
  DeviceBuffer<std::uint64_t> leave_cycles, batch_cycles, span_ns;
  DeviceBuffer<unsigned> timed_out;
  std::size_t leaves, batches, k;
  SyncParams params{};
  bool started = false;
};

class RealCudaRuntime final : public CudaRuntime {
 public:
  explicit RealCudaRuntime(int ordinal)
      : facts_(read_device_facts(ordinal)),
        // More than half an SM's shared memory per block: no SM can take two.
        smem_bytes_(facts_.smem_optin_bytes - 1024),
        control_(facts_.sm_count, sm_id_limit()) {
    prepare_pingpong_kernels(smem_bytes_);
    prepare_line_probe_kernel(smem_bytes_);
    prepare_cluster_census(smem_bytes_);
    prepare_coherence_kernels();
    prepare_sync_kernels(smem_bytes_);
  }

  // Members are freed after this body: on this GPU.
  ~RealCudaRuntime() override { (void)cudaSetDevice(facts_.ordinal); }
  RealCudaRuntime(const RealCudaRuntime&) = delete;
  RealCudaRuntime& operator=(const RealCudaRuntime&) = delete;

  const DeviceFacts& facts() const override { return facts_; }
  std::size_t smem_per_block() const override { return smem_bytes_; }

  std::size_t free_memory_bytes() override {
    const OnDevice on(facts_.ordinal);
    std::size_t free_bytes = 0, total_bytes = 0;
    CUMAP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return free_bytes;
  }
  DeviceAddress allocate(std::size_t bytes) override {
    const OnDevice on(facts_.ordinal);
    void* p = nullptr;
    CUMAP_CUDA_CHECK(cudaMalloc(&p, bytes));
    return reinterpret_cast<DeviceAddress>(p);
  }
  void release(DeviceAddress memory) noexcept override {
    if (!memory) return;
    // Errors surface at the next checked call.
    (void)cudaSetDevice(facts_.ordinal);
    (void)cudaFree(as_pointer<void>(memory));
  }
  void zero(DeviceAddress memory, std::size_t bytes) override {
    const OnDevice on(facts_.ordinal);
    CUMAP_CUDA_CHECK(cudaMemsetAsync(as_pointer<void>(memory), 0, bytes, stream_.get()));
    CUMAP_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  std::array<std::uint64_t, 4> calibrate_clock() override {
    const OnDevice on(facts_.ordinal);
    DeviceBuffer<std::uint64_t> marks(4);
    launch_clock_calibration(marks.get(), 50'000'000, 10'000'000, stream_.get());
    const auto m = marks.download(4, stream_.get());
    return {m[0], m[1], m[2], m[3]};
  }

  void prepare_pingpong(const PingPongLaunch& launch) override {
    const OnDevice on(facts_.ordinal);
    if (launch.arenas.size() != launch.controls.size() || launch.arenas.empty() ||
        launch.arenas.size() > static_cast<std::size_t>(kMaxGroupGpus) || launch.self < 0 ||
        static_cast<std::size_t>(launch.self) >= launch.arenas.size())
      throw std::invalid_argument("prepare_pingpong: a launch group needs an arena and control words per member");
    const int samples = launch.settings.counts.samples;
    if (!buffers_ || !buffers_->fits(launch.pairs, samples)) {
      const PingPongBuffers::Room room =
          PingPongBuffers::room_for(buffers_ ? &*buffers_ : nullptr, launch.pairs, samples);
      buffers_.reset();  // the old room goes back before the new is asked for
      buffers_.emplace(room);
    }
    PingPongParams& pp = pending_.emplace();
    pp.settings = launch.settings;
    pp.self = launch.self;
    pp.group_size = static_cast<int>(launch.arenas.size());
    pp.group_blocks = launch.group_blocks;
    for (std::size_t g = 0; g < launch.arenas.size(); ++g) {
      pp.arenas[g] = as_pointer<std::uint32_t>(launch.arenas[g]);
      pp.controls[g] = as_pointer<unsigned>(launch.controls[g]);
    }
    for (std::size_t g = 0; g < launch.sides_done.size() && g < launch.arenas.size(); ++g)
      pp.sides_done[g] = as_pointer<unsigned>(launch.sides_done[g]);
    pp.flush_buffer = launch.settings.flush_l2 ? as_pointer<std::uint32_t>(launch.flush_buffer) : nullptr;
    pp.flush_words = launch.settings.flush_l2 ? launch.flush_words : 0;
    buffers_->prepare(pp, launch.pairs, stream_.get());
    control_.reset(stream_.get());
    control_.point(pp);
    // Cleared before any member of the group starts: they add to these words.
    CUMAP_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  void start_pingpong() override {
    const OnDevice on(facts_.ordinal);
    if (!pending_) throw std::logic_error("start_pingpong without prepare_pingpong");
    timer_.start(stream_.get());
    launch_pingpong(*pending_, facts_.sm_count, smem_bytes_, stream_.get());
    CUMAP_CUDA_CHECK(cudaGetLastError());
    timer_.stop(stream_.get());
  }

  PingPongOutcome finish_pingpong() override {
    const OnDevice on(facts_.ordinal);
    if (!pending_) throw std::logic_error("finish_pingpong without a started launch");
    const auto pairs = static_cast<std::size_t>(pending_->pair_count);
    pending_.reset();
    CUMAP_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    PingPongOutcome out;
    out.elapsed_ms = timer_.elapsed_ms();
    read_outcome(out);
    out.records = buffers_->records(pairs, stream_.get());
    return out;
  }

  DeviceAddress control_words() const override { return reinterpret_cast<DeviceAddress>(control_.words()); }

  PeerAccess open_peer_access(int peer) override {
    const OnDevice on(facts_.ordinal);
    PeerAccess a;
    int value = 0;
    CUMAP_CUDA_CHECK(cudaDeviceCanAccessPeer(&value, facts_.ordinal, peer));
    a.can_access = value != 0;
    if (!a.can_access) return a;
    CUMAP_CUDA_CHECK(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrNativeAtomicSupported, facts_.ordinal, peer));
    a.native_atomics = value != 0;
    CUMAP_CUDA_CHECK(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrPerformanceRank, facts_.ordinal, peer));
    a.performance_rank = value;
    // Enabled once per pair of devices for the process; a second call says so.
    if (const cudaError_t err = cudaDeviceEnablePeerAccess(peer, 0);
        err != cudaSuccess && err != cudaErrorPeerAccessAlreadyEnabled)
      throw_cuda_error(err, "cudaDeviceEnablePeerAccess", __FILE__, __LINE__);
    (void)cudaGetLastError();  // clear the already-enabled error
    return a;
  }

  MemoryFacts memory_facts(DeviceAddress address) override {
    const OnDevice on(facts_.ordinal);
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, as_pointer<void>(address)) != cudaSuccess) {
      (void)cudaGetLastError();  // an address the runtime does not know
      return {};
    }
    switch (attributes.type) {
      case cudaMemoryTypeDevice: return {MemoryKind::Device, attributes.device};
      case cudaMemoryTypeManaged: return {MemoryKind::Managed, attributes.device};
      case cudaMemoryTypeHost: return {MemoryKind::Host, attributes.device};
      default: return {};
    }
  }

  LineProbeOutcome run_line_probe(const LineProbeLaunch& launch) override {
    const OnDevice on(facts_.ordinal);
    std::vector<int> turn_of_sm(static_cast<std::size_t>(sm_id_limit()), -1);
    for (std::size_t t = 0; t < launch.turn_sms.size(); ++t) turn_of_sm.at(launch.turn_sms[t]) = static_cast<int>(t);
    DeviceBuffer<std::uint32_t> words(launch.line_words.size());
    DeviceBuffer<int> turns(turn_of_sm.size());
    const std::size_t cells = launch.turn_sms.size() * launch.line_words.size() * launch.repeats;
    DeviceBuffer<std::uint64_t> cycles(cells);
    words.upload(launch.line_words, stream_.get());
    turns.upload(turn_of_sm, stream_.get());
    cycles.zero(stream_.get());
    LineProbeParams lp{};
    lp.arena = as_pointer<const std::uint32_t>(launch.arena);
    lp.remote = launch.remote ? 1 : 0;
    lp.line_words = words.get();
    lp.line_count = static_cast<int>(launch.line_words.size());
    lp.chain = launch.chain;
    lp.repeats = launch.repeats;
    lp.zero_mask = 0;
    lp.turn_of_sm = turns.get();
    lp.turn_count = static_cast<int>(launch.turn_sms.size());
    lp.together = launch.together ? 1 : 0;
    lp.turn_budget_cycles = launch.turn_budget_cycles;
    lp.turn_ns_estimate = launch.turn_ns_estimate;
    lp.cycles = cycles.get();
    control_.reset(stream_.get());
    control_.point(lp);
    lp.control = control_.words();
    LineProbeOutcome out;
    out.elapsed_ms = timed([&](cudaStream_t s) { launch_line_probe(lp, facts_.sm_count, smem_bytes_, s); });
    read_outcome(out);
    out.cycles = cycles.download(cells, stream_.get());
    return out;
  }

  void prepare_sync(const SyncLaunch& launch) override;
  void start_sync() override {
    const OnDevice on(facts_.ordinal);
    if (!pending_sync_ || pending_sync_->started) throw std::logic_error("start_sync without prepare_sync");
    timer_.start(stream_.get());
    launch_sync(pending_sync_->params, facts_.sm_count, smem_bytes_, stream_.get());
    CUMAP_CUDA_CHECK(cudaGetLastError());
    timer_.stop(stream_.get());
    pending_sync_->started = true;
  }
  SyncOutcome finish_sync() override;

  std::size_t set_persisting_window(DeviceAddress base, std::size_t bytes) override {
    const OnDevice on(facts_.ordinal);
    if (persisting_window_bytes(bytes, facts_.persisting_l2_max_bytes, facts_.access_policy_max_window_bytes) == 0)
      return 0;
    persist_.reset();
    persist_.emplace(stream_.get(), as_pointer<void>(base), bytes, facts_.persisting_l2_max_bytes,
                     facts_.access_policy_max_window_bytes);
    return persist_->bytes();
  }
  void clear_persisting_window() noexcept override {
    (void)cudaSetDevice(facts_.ordinal);  // noexcept: an error surfaces at the next checked call
    persist_.reset();
  }

  Topology discover_gpcs(const std::vector<int>& sm_ids) override {
    const OnDevice on(facts_.ordinal);
    return cuda::discover_gpcs(facts_.cc_major, smem_bytes_, sm_ids, stream_.get());
  }

  CoherenceReport check_coherence(int reader, int writer, double window_ms, double cycles_per_ns) override;

  Measurements measure_dsm(const MeasurementPlan& plan, const std::vector<int>& sm_ids, double cycles_per_ns,
                           const ProgressFn& progress) override {
    const OnDevice on(facts_.ordinal);
    DsmContext ctx;
    ctx.device = facts_.ordinal;
    ctx.stream = stream_.get();
    ctx.cc_major = facts_.cc_major;
    ctx.cc_minor = facts_.cc_minor;
    ctx.sm_ids = sm_ids;
    ctx.max_sm_clock_hz = facts_.max_sm_clock_hz;
    ctx.cycles_per_ns = cycles_per_ns;
    ctx.smem_bytes = smem_bytes_;
    return cuda::measure_dsm(plan, ctx, progress);
  }

 private:
  int sm_id_limit() const { return std::max(facts_.sm_count, 1024); }

  // Runs `launch` on the stream between two events; ms between them.
  template <typename Launch>
  double timed(Launch&& launch) {
    cudaStream_t s = stream_.get();
    timer_.start(s);
    launch(s);
    CUMAP_CUDA_CHECK(cudaGetLastError());
    timer_.stop(s);
    CUMAP_CUDA_CHECK(cudaStreamSynchronize(s));
    return timer_.elapsed_ms();
  }

  void read_outcome(LaunchOutcome& out) const {
    out.abort_code = control_.abort_code(stream_.get());
    out.clock_marks = control_.clock_marks(stream_.get());
    out.block_sm = control_.block_sm(stream_.get());
  }

  DeviceFacts facts_;
  std::size_t smem_bytes_;
  Stream stream_;
  EventTimer timer_;
  LaunchControl control_;
  std::optional<PingPongBuffers> buffers_;
  std::optional<PingPongParams> pending_;  // prepared, not yet finished
  std::optional<PendingSync> pending_sync_;  // prepared, not yet finished
  std::optional<PersistingL2Window> persist_;
};

void RealCudaRuntime::prepare_sync(const SyncLaunch& launch) {
  const OnDevice on(facts_.ordinal);
  const std::size_t members = launch.arenas.size();
  const auto member = [members](int m) { return m >= 0 && static_cast<std::size_t>(m) < members; };
  bool group_ok = members > 0 && members <= static_cast<std::size_t>(kMaxGroupGpus) &&
                  launch.controls.size() == members && member(launch.self) && member(launch.counter_member) &&
                  launch.exchange.size() <= static_cast<std::size_t>(kMaxGroupGpus);
  for (const GroupWord& w : launch.exchange) group_ok &= member(w.member);
  if (!group_ok)
    throw std::invalid_argument("prepare_sync: a launch group needs an arena and control words per member, and "
                                "every word on a member");
  const SyncSettings& s = launch.settings;
  const std::size_t k = launch.participant_sms.size();
  const std::size_t leaves = static_cast<std::size_t>(s.warmup + s.episodes) + 1;
  const std::size_t batches = is_contention(s.kind) ? k * static_cast<std::size_t>(s.episodes) : 1;
  std::vector<int> participant_of_sm(static_cast<std::size_t>(sm_id_limit()), -1);
  for (std::size_t p = 0; p < k; ++p)
    if (launch.participant_sms[p] >= 0) participant_of_sm.at(launch.participant_sms[p]) = static_cast<int>(p);
  pending_sync_.reset();  // a launch prepared and never finished: its buffers go first
  PendingSync& ps = pending_sync_.emplace(participant_of_sm.size(), launch.roles.size(), leaves, batches, k);
  cudaStream_t st = stream_.get();
  ps.participants.upload(participant_of_sm, st);
  if (!launch.roles.empty()) ps.roles.upload(launch.roles, st);
  ps.leave_cycles.zero(st);
  ps.batch_cycles.zero(st);
  ps.span_ns.zero(st);
  ps.timed_out.zero(st);
  auto* const arena = as_pointer<std::uint32_t>(launch.own_arena());
  for (std::uint32_t w : launch.zero_words)
    CUMAP_CUDA_CHECK(cudaMemsetAsync(arena + w, 0, sizeof(std::uint32_t), st));
  // A word of any member, as this GPU reaches it.
  const auto at = [&launch](int m, std::uint32_t word) {
    return as_pointer<unsigned>(launch.arenas[static_cast<std::size_t>(m)]) + word;
  };

  SyncParams& sp = ps.params;
  sp.settings = s;
  sp.counter = at(launch.counter_member, launch.counter_word);
  sp.release = at(launch.counter_member, launch.release_word);
  sp.arena = arena;
  sp.participant_of_sm = ps.participants.get();
  sp.roles = ps.roles.get();
  sp.participants = static_cast<int>(k);
  sp.groups = launch.groups;
  sp.zero_mask = 0;
  sp.leave_cycles = ps.leave_cycles.get();
  sp.batch_cycles = ps.batch_cycles.get();
  sp.span_ns = ps.span_ns.get();
  sp.timed_out = ps.timed_out.get();
  sp.exchange_groups = static_cast<unsigned>(launch.exchange.size());
  for (std::size_t g = 0; g < launch.exchange.size(); ++g)
    sp.exchange[g] = at(launch.exchange[g].member, launch.exchange[g].word);
  sp.self = launch.self;
  sp.group_size = static_cast<int>(members);
  sp.group_blocks = launch.group_blocks;
  for (std::size_t g = 0; g < members; ++g) sp.controls[g] = as_pointer<unsigned>(launch.controls[g]);
  control_.reset(st);
  control_.point(sp);
  sp.control = control_.words();
  // Cleared before any member of the group starts: they add to these words.
  CUMAP_CUDA_CHECK(cudaStreamSynchronize(st));
}

SyncOutcome RealCudaRuntime::finish_sync() {
  const OnDevice on(facts_.ordinal);
  if (!pending_sync_ || !pending_sync_->started) throw std::logic_error("finish_sync without a started launch");
  const PendingSync& ps = *pending_sync_;
  cudaStream_t st = stream_.get();
  CUMAP_CUDA_CHECK(cudaStreamSynchronize(st));
  SyncOutcome out;
  out.elapsed_ms = timer_.elapsed_ms();
  read_outcome(out);
  out.timed_out = ps.timed_out.download(1, st)[0] != 0;
  out.leave_cycles = ps.leave_cycles.download(ps.leaves, st);
  if (is_contention(ps.params.settings.kind)) {
    out.batch_cycles = ps.batch_cycles.download(ps.batches, st);
    out.span_ns = ps.span_ns.download(2 * ps.k, st);
  }
  pending_sync_.reset();
  return out;
}

CoherenceReport RealCudaRuntime::check_coherence(int reader, int writer, double window_ms, double cpn) {
  const OnDevice on(facts_.ordinal);
  // Each case gets its own page: data, then the two handshake flags on lines of their own.
  constexpr std::size_t kCaseWords = 1024;
  constexpr int kCases = kStoreOps * kLoadOps;
  DeviceBuffer<unsigned> mem(kCaseWords * kCases);
  DeviceBuffer<unsigned> claims(static_cast<std::size_t>(kCases) * sm_id_limit());
  DeviceBuffer<std::uint64_t> out(kCoherenceOutWords * kCases);
  claims.zero(stream_.get());
  mem.zero(stream_.get());
  out.zero(stream_.get());
  CoherenceReport report{reader, writer, {}};
  for (int st = 0; st < kStoreOps; ++st) {
    for (int ld = 0; ld < kLoadOps; ++ld) {
      const int c = st * kLoadOps + ld;
      CoherenceParams p{};
      p.data = mem.get() + c * kCaseWords;
      p.ready = p.data + 256;
      p.written = p.data + 512;
      p.out = out.get() + kCoherenceOutWords * c;
      p.claims = claims.get() + static_cast<std::size_t>(c) * sm_id_limit();
      p.claim_slots = sm_id_limit();
      p.reader_sm = reader;
      p.writer_sm = writer;
      p.handshake_budget_cycles = budget_cycles(100.0, facts_.max_sm_clock_hz);
      p.window_cycles = budget_cycles(window_ms, facts_.max_sm_clock_hz);
      launch_coherence(st, ld, p, 4 * facts_.sm_count, stream_.get());
      CUMAP_CUDA_CHECK(cudaGetLastError());
    }
  }
  const auto r = out.download(out.size(), stream_.get());
  for (int c = 0; c < kCases; ++c) {
    CoherenceCase cc;
    cc.store = kStoreOpNames[c / kLoadOps];
    cc.load = kLoadOpNames[c % kLoadOps];
    const std::uint64_t* o = &r[kCoherenceOutWords * c];
    cc.saw_new_value = o[0] != 0;
    cc.first_seen_ns = static_cast<double>(o[1]) / cpn;
    cc.window_ns = static_cast<double>(o[2]) / cpn;
    cc.handshake_timed_out = o[3] != 0;
    cc.primed_reload_cycles = static_cast<double>(o[4]);
    cc.load_caches_in_l1 = kLoadCachesInL1[c % kLoadOps];
    report.cases.push_back(cc);
  }
  return report;
}

}  // namespace

std::unique_ptr<CudaRuntime> make_real_cuda_runtime(int ordinal) { return std::make_unique<RealCudaRuntime>(ordinal); }

}  // namespace cumap::cuda
