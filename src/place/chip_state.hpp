#pragma once
// What a Chip, a LinePool and a System of the placement library hold
// (cumap/place.hpp declares them): the open backend the lines are timed
// with, and home discovery's result on each GPU. Tests build them over a
// fake backend (chip_on, system_on) instead of a GPU.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cumap/backend.hpp"
#include "cumap/place.hpp"
#include "cumap/result.hpp"

namespace cumap::place {

struct Chip::State {
  std::shared_ptr<Backend> backend;  // open: classify times lines with it
  int gpu = 0;
  std::string serial;
  // This GPU's homes: its SMs (unit_ids, the table's units in UnitRef form),
  // classes and sides, and each SM's median latency to each class
  // (classes.class_unit_ns). A chip taken from a saved run has no line table.
  HomesResult homes;
  std::vector<UnitRef> sm_refs;        // homes' units as the backend names them
  std::vector<int> sm_ids;             // their SM ids, ascending
  std::map<int, std::size_t> row_of_sm;
  int chain = 8;                       // dependent atomics per timing, as home discovery's
  // Each unit of another GPU to this GPU's lines' classes over the link (a
  // System's chip): [class][row of remote_units].
  std::vector<UnitRef> remote_units;
  std::vector<std::vector<double>> remote_class_ns;
};

struct LinePool::State {
  std::shared_ptr<const Chip::State> chip;
  std::vector<Line> lines;
  std::vector<bool> handed_out;
};

struct System::State {
  std::map<int, Chip> chips;  // by GPU ordinal
};

// Fills a state's SM lookups (sm_ids, row_of_sm) from its sm_refs.
void index_sms(Chip::State& state);

// A chip over an open backend on GPU `gpu`, homes discovered now with the
// options of `cumap homes` (`options`: its home discovery settings).
Chip chip_on(std::shared_ptr<Backend> backend, int gpu, const Options& options);
// The same with homes taken from a saved run's homes.json and meta.json
// (`run_dir`); Error unless the backend's GPU has the run's serial.
Chip chip_from_run(std::shared_ptr<Backend> backend, int gpu, const std::string& run_dir);
// A system over an open backend spanning `gpus`.
System system_on(std::shared_ptr<Backend> backend, const std::vector<int>& gpus, const Options& options);

}  // namespace cumap::place
