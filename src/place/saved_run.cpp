// A Chip from a saved run: the sides and class levels of its homes.json,
// on a GPU whose serial is the run's (a map keyed by SM id belongs to one
// chip: another chip puts other SMs on each side).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "place/chip_state.hpp"
#include "place/errors.hpp"

namespace cumap::place {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

Json read_json(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    throw Error(fmt::format("{} is not there: name the output directory of a cumap run (or of cumap homes)",
                            file.string()));
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return Json::parse(text.str());
  } catch (const Json::exception&) {
    throw Error(fmt::format("{} is not JSON", file.string()));
  }
}

// Each device's serial as the run's meta.json records it, by device ordinal
// (one GPU: "device.serial"; several: "device.gpus[i].serial" and
// "device_ordinal").
std::map<int, std::string> run_serials(const Json& meta) {
  std::map<int, std::string> out;
  const Json& device = meta.at("device");
  if (device.contains("gpus") && device["gpus"].is_array())
    for (const Json& g : device["gpus"]) out[g.at("device_ordinal").get<int>()] = g.value("serial", "");
  else
    out[device.value("device_ordinal", 0)] = device.value("serial", "");
  return out;
}

}  // namespace

Chip chip_from_run(std::shared_ptr<Backend> backend, int gpu, const std::string& run_dir) {
  auto s = std::make_shared<Chip::State>();
  s->gpu = gpu;
  const DeviceInfo device = backend->device();
  for (const DeviceInfo::Gpu& g : device.gpus)
    if (g.ordinal == gpu) s->serial = g.serial;
  if (s->serial.empty())
    throw Error(fmt::format("{} (the {} backend, device {}) reports no serial, so {} cannot be checked to be of this "
                            "chip: use Chip::discover",
                            device.name, device.backend, gpu, run_dir));
  const fs::path dir(run_dir);
  try {
    const Json meta = read_json(dir / "meta.json");
    const Json homes = read_json(dir / "homes.json");
    int run_device = -1;
    std::string serials;
    for (const auto& [device, serial] : run_serials(meta)) {
      serials += (serials.empty() ? "" : ", ") + serial;
      if (serial == s->serial) run_device = device;
    }
    if (run_device < 0)
      throw Error(fmt::format("{} was measured on the chip(s) {}; GPU {} is {}: a map keyed by SM id belongs to one "
                              "chip (Chip::discover finds this chip's homes in about a tenth of a second)",
                              run_dir, serials, gpu, s->serial));
    const Json* entry = &homes;
    if (homes.contains("devices")) {
      entry = nullptr;
      for (const Json& d : homes["devices"])
        if (d.at("device").get<int>() == run_device) entry = &d;
      if (!entry) throw Error(fmt::format("{}/homes.json has no homes of the run's device {}", run_dir, run_device));
    }
    HomeClasses& classes = s->homes.classes;
    classes.class_count = entry->at("class_count").get<int>();
    classes.unit_side = entry->at("unit_side").get<std::vector<int>>();
    for (const Json& c : entry->at("classes"))
      classes.class_unit_ns.push_back(c.at("median_ns_by_unit").get<std::vector<double>>());
    for (int id : entry->at("units").get<std::vector<int>>()) {
      s->homes.unit_ids.push_back(id);
      s->sm_refs.push_back({gpu, unit_ref(id, run_device).unit});
    }
    if (classes.unit_side.size() != s->sm_refs.size() ||
        classes.class_unit_ns.size() != static_cast<std::size_t>(classes.class_count))
      throw Error(fmt::format("{}/homes.json does not hold a side and a latency per class for every unit", run_dir));
    for (const auto& profile : classes.class_unit_ns)
      if (profile.size() != s->sm_refs.size())
        throw Error(fmt::format("{}/homes.json does not hold a latency per class for every unit", run_dir));
  } catch (const Json::exception& e) {
    throw Error(fmt::format("{} is not a cumap run this library can read: {}", run_dir, e.what()));
  }
  s->homes.device = gpu;
  s->homes.table.units = s->sm_refs;
  index_sms(*s);
  s->backend = std::move(backend);
  return Chip(std::move(s));
}

}  // namespace cumap::place
