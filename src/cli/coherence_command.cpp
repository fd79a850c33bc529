#include "cli/commands.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/open_device.hpp"
#include "cumap/backend.hpp"
#include "publish/json_file.hpp"

namespace cumap::cli {
namespace {

// Above this a reload went past L1 (an L1 hit takes tens of cycles, ~45 on
// an H100; an L2 hit hundreds).
constexpr double kL1HitCycles = 100;

std::string cell(const CoherenceCase& c) {
  if (c.handshake_timed_out) return "timed out";
  if (c.load_caches_in_l1 && c.primed_reload_cycles > kL1HitCycles) return "not in L1";
  if (!c.saw_new_value) return fmt::format("stale ({:.0f} us)", c.window_ns / 1e3);
  return fmt::format("new ({:.2f} us)", c.first_seen_ns / 1e3);
}

nlohmann::json to_json(const CoherenceReport& r, const DeviceInfo& d) {
  nlohmann::json j;
  j["device"] = d.name;
  j["driver_version"] = d.driver_version;
  j["reader_unit"] = r.reader_unit;
  j["writer_unit"] = r.writer_unit;
  for (const auto& c : r.cases)
    j["cases"].push_back({{"store", c.store},
                          {"load", c.load},
                          {"saw_new_value", c.saw_new_value},
                          {"handshake_timed_out", c.handshake_timed_out},
                          {"first_seen_ns", c.first_seen_ns},
                          {"window_ns", c.window_ns},
                          {"primed_reload_cycles", c.primed_reload_cycles},
                          {"load_caches_in_l1", c.load_caches_in_l1},
                          {"line_was_in_l1", c.primed_reload_cycles <= kL1HitCycles}});
  return j;
}

}  // namespace

int run_check_coherence(const CoherenceCommand& command) {
  auto backend = open_checked_device(command.options, command.json_out);
  const DeviceInfo d = backend->device();
  const auto units = backend->units();
  const int reader = command.reader.value_or(units.front());
  const int writer = command.writer.value_or(units.back());
  const CoherenceReport r = backend->check_coherence(reader, writer, command.window_ms);
  if (command.json_out) write_json_file(*command.json_out, to_json(r, d));

  fmt::print("{}: {} {} loads a line, {} {} stores to it, the reader reloads with the same load for up to {} ms\n",
             d.name, d.unit_name, r.reader_unit, d.unit_name, r.writer_unit, command.window_ms);
  fmt::print("{:<12}", "store\\load");
  std::vector<std::string> loads;
  for (const auto& c : r.cases)
    if (std::find(loads.begin(), loads.end(), c.load) == loads.end()) loads.push_back(c.load);
  for (const auto& l : loads) fmt::print("{:<18}", l);
  fmt::print("\n");
  for (std::size_t i = 0; i < r.cases.size(); i += loads.size()) {
    fmt::print("{:<12}", r.cases[i].store);
    for (std::size_t k = 0; k < loads.size(); ++k) fmt::print("{:<18}", cell(r.cases[i + k]));
    fmt::print("\n");
  }
  fmt::print("'stale': the reader never saw the store; a flag polled with that load can hang.\n");
  fmt::print("'not in L1': the load could cache in L1 but the primed line was not held there (a reload took\n"
             "L2 time), so that case shows nothing either way.\n");
  fmt::print("primed reload (cycles):");
  for (const auto& c : r.cases) fmt::print(" {:.0f}", c.primed_reload_cycles);
  fmt::print("\n");
  return 0;
}

}  // namespace cumap::cli
