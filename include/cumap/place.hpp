#pragma once
// cumap::place: which of a program's own cache lines are near which SMs.
//
// A flag line's cost follows where its L2 home is (cumap's maps show it: on
// an H200 a pair of SMs on the side near the line's home class signals in
// 267 ns one-way, on the far side in 416). A line's home follows its
// physical address, which does not move while an allocation lives, so a
// program can ask once, at start-up, which home class each line of memory it
// owns is in and which side each SM is on, and put each flag where the SMs
// that share it are near.
//
//   #include <cumap/place.hpp>
//   auto chip = cumap::place::Chip::discover(0);        // ~0.1 s: cumap homes
//   unsigned* flags;  cudaMalloc(&flags, 64 << 10);
//   auto pool = chip.classify(flags, 64 << 10);          // each line's class
//   unsigned* flag = pool.for_units({3, 17}).pointer<unsigned>();
//
// In CMake: find_package(cumap) and target_link_libraries(app PRIVATE
// cumap::place). The header is C++17, for .cu files too. Kernels that choose their flag by the SM they landed on
// read Chip::side_table() through <cumap/place_device.cuh>.
//
// Limits, also said by the errors: one home class (a CPU, a GPU whose L2 is
// not split) makes every line near every SM, and the pool says so
// (LinePool::homes_matter() is false) and hands out any line; managed
// memory is refused (its pages move, and a line's home with them); under
// MIG the discovery measures the instance's SMs and lines as they are; AMD
// GPUs go through the same API on the hip backend, which has been tested
// against a simulated runtime only.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// The library exports these classes and nothing else.
#define CUMAP_PLACE_API __attribute__((visibility("default")))

namespace cumap::place {

// Anything the library refuses or cannot do (no GPU, managed memory, a run
// of another chip), with the reason and what to do.
class CUMAP_PLACE_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An SM (a CU on AMD) of one GPU, by the GPU's ordinal and the SM's id
// (%smid).
struct Sm {
  int gpu = 0;
  int id = 0;
};

// A 128-byte line of device memory and its home class on the GPU whose
// memory it is.
struct Line {
  std::uintptr_t address = 0;
  int gpu = 0;
  int home_class = 0;
  template <typename T>
  T* pointer() const {
    return reinterpret_cast<T*>(address);
  }
};

class LinePool;

// One GPU's homes as its SMs see them: each SM's side (the home class it
// reaches fastest) and each SM's mean latency to each class (the home
// table's levels). Discovering takes about a tenth of a second; it can also
// be taken from a saved `cumap` run of the same chip.
class CUMAP_PLACE_API Chip {
 public:
  // Runs home discovery (what `cumap homes` does) on GPU `gpu`. Error
  // without a CUDA GPU.
  static Chip discover(int gpu = 0);
  // The homes of a saved run of this chip (a `cumap` or `cumap homes`
  // output directory: its homes.json and meta.json), on GPU `gpu`. Error
  // when the GPU's serial is not the run's, or the run holds no homes.
  static Chip load(const std::string& run_dir, int gpu = 0);

  int gpu() const;
  const std::string& serial() const;  // NVML's ("" where it cannot tell)
  int class_count() const;            // 1: every line is as near as any other
  const std::vector<int>& sms() const;
  int side_of(int sm) const;  // -1 for an SM this chip does not have
  // Median latency (ns, one dependent atomic) from SM `sm` to the lines of
  // class `home_class`.
  double latency_ns(int sm, int home_class) const;
  // side_table()[smid] is that SM's side (-1 where no SM has that id), for
  // kernels: copy it to the device and read it with <cumap/place_device.cuh>.
  std::vector<int> side_table() const;

  // The home class of every 128-byte line of [memory, memory + bytes), a
  // device allocation of this GPU (cudaMalloc or a pool the program owns;
  // the range is widened to whole lines). Each line is timed from every SM
  // at once (64 KiB in milliseconds). Error for managed or host memory.
  LinePool classify(const void* memory, std::size_t bytes) const;

  struct State;
  explicit Chip(std::shared_ptr<const State> state);
  const State& state() const { return *state_; }

 private:
  std::shared_ptr<const State> state_;
};

// The classified lines of one allocation, and the choice of a line for the
// SMs that will share it.
class CUMAP_PLACE_API LinePool {
 public:
  int gpu() const;
  const std::vector<Line>& lines() const;
  // Whether where a flag lives changes its cost here: false with one home
  // class, where every line is as good as another.
  bool homes_matter() const;
  // The lines of class `home_class`, in address order.
  std::vector<Line> of_class(int home_class) const;
  // The lines of the class side `side` is near: where a flag that side's
  // SMs share is cheapest.
  std::vector<Line> near(int side) const;
  // The line whose class costs the SMs that will share it least (the sum of
  // each SM's latency to the class, the home table's prediction of a round
  // trip on it): the first of that class not yet handed out by this pool (a
  // program placing many flags gets a line for each), else of the next
  // cheapest class. Error when the pool is used up. Copies of a pool share
  // what it has handed out.
  Line for_units(const std::vector<int>& sms);
  Line for_pair(int a, int b);
  // The first line of `home_class` not yet handed out (Error when none is
  // left), and how many are left.
  Line take(int home_class);
  std::size_t left(int home_class) const;
  // How much a line of `home_class` is predicted to cost the SMs `sms`
  // (the sum of their latencies to the class, ns).
  double predicted_ns(const std::vector<int>& sms, int home_class) const;

  struct State;
  explicit LinePool(std::shared_ptr<State> state);

 private:
  std::shared_ptr<State> state_;
};

// Several GPUs, for flags that SMs of two of them share (peer memory): each
// GPU's homes and, for each, how its lines look from the other GPUs' SMs
// over the link (where, on two H200s over NVLink, the cost follows the
// line's class and the side of the SM reaching across, not the near side).
class CUMAP_PLACE_API System {
 public:
  // Home discovery on every listed GPU and across them (`cumap homes
  // --devices`). Error when a GPU cannot reach another's memory with native
  // atomics.
  static System discover(const std::vector<int>& gpus);

  const Chip& chip(int gpu) const;
  // Median latency (ns, one dependent atomic) from `sm` to the lines of
  // class `home_class` of GPU `memory_gpu` (over the link when it is another
  // GPU's).
  double latency_ns(Sm sm, int memory_gpu, int home_class) const;
  // For a flag SMs `a` and `b` share: of the pools given (allocations on
  // one GPU or several), the line whose GPU and class cost the two least,
  // the first not yet handed out. Error when every pool is used up.
  Line for_pair(const std::vector<LinePool*>& pools, Sm a, Sm b) const;

  struct State;
  explicit System(std::shared_ptr<const State> state);

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace cumap::place
