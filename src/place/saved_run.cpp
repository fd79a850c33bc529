// A Chip from a saved run: the sides and class levels of its homes.json,
// on a GPU whose serial is the run's (a map keyed by SM id belongs to one
// chip: another chip puts other SMs on each side).
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "place/chip_state.hpp"
#include "place/errors.hpp"
#include "report/read/checked_file.hpp"
#include "report/read/json_fields.hpp"

namespace cumap::place {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

// Through the one checked reader (report/read/checked_file.hpp): a named
// pipe or /dev/zero in a run's place is refused, not read forever.
Json read_json(const fs::path& file, const ReadKind& kind) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec)))
    throw Error(fmt::format("{} is not there: name the output directory of a cumap run (or of cumap homes)",
                            file.string()));
  try {
    return read_checked_json(file, kind);
  } catch (const FileReadError& e) {
    throw Error(fmt::format("{} cannot be read as a cumap run's: {}", file.string(), e.reason()));
  }
}

// A saved run's numbers, each checked: a value that is not one (or out of
// range) is refused with the key it was under, never converted.
struct Reader {
  std::string file;  // for messages

  [[noreturn]] void refuse(const std::string& what) const {
    throw Error(fmt::format("{} is not as cumap writes it: {}", file, what));
  }
  const Json& at(const Json& j, const char* key) const {
    if (!j.is_object() || !j.contains(key)) refuse(fmt::format("\"{}\" is missing", key));
    return j[key];
  }
  int integer(const Json& v, const char* key) const {
    const std::optional<int> x = json_fields::exact<int>(v);
    if (!x) refuse(fmt::format("\"{}\" holds something that is not an integer", key));
    return *x;
  }
  std::vector<int> integers(const Json& v, const char* key) const {
    if (!v.is_array()) refuse(fmt::format("\"{}\" is not a list", key));
    std::vector<int> out;
    for (const Json& x : v) out.push_back(integer(x, key));
    return out;
  }
  std::vector<double> latencies(const Json& v, const char* key) const {
    if (!v.is_array()) refuse(fmt::format("\"{}\" is not a list", key));
    std::vector<double> out;
    for (const Json& x : v) {
      const std::optional<double> ns = x.is_number() ? std::optional<double>(x.get<double>()) : std::nullopt;
      if (!ns || !std::isfinite(*ns) || *ns < 0)
        refuse(fmt::format("\"{}\" holds something that is not a latency", key));
      out.push_back(*ns);
    }
    return out;
  }
};

// Each device's serial as the run's meta.json records it, by device ordinal
// (one GPU: "device.serial"; several: "device.gpus[i].serial" and
// "device_ordinal").
std::map<int, std::string> run_serials(const Json& meta, const Reader& read) {
  std::map<int, std::string> out;
  const Json& device = read.at(meta, "device");
  if (device.contains("gpus") && device["gpus"].is_array())
    for (const Json& g : device["gpus"])
      out[read.integer(read.at(g, "device_ordinal"), "device_ordinal")] = json_fields::text(g, "serial");
  else
    out[json_fields::whole<int>(device, "device_ordinal", 0)] = json_fields::text(device, "serial");
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
  const Json meta = read_json(dir / "meta.json", kMetaJsonRead);
  const Json homes = read_json(dir / "homes.json", kHomesJsonRead);
  const Reader read_meta{(dir / "meta.json").string()}, read{(dir / "homes.json").string()};
  int run_device = -1;
  std::string serials;
  for (const auto& [device, serial] : run_serials(meta, read_meta)) {
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
    if (!homes["devices"].is_array()) read.refuse("\"devices\" is not a list");
    for (const Json& d : homes["devices"])
      if (read.integer(read.at(d, "device"), "device") == run_device) entry = &d;
    if (!entry) throw Error(fmt::format("{}/homes.json has no homes of the run's device {}", run_dir, run_device));
  }
  // The SMs this GPU has: a saved run of this chip names no other.
  std::set<int> sms;
  for (int id : backend->units())
    if (const UnitRef unit = unit_ref(id, gpu); unit.device == gpu) sms.insert(unit.unit);
  HomeClasses& classes = s->homes.classes;
  classes.class_count = read.integer(read.at(*entry, "class_count"), "class_count");
  if (classes.class_count < 1) read.refuse("\"class_count\" is less than 1");
  classes.unit_side = read.integers(read.at(*entry, "unit_side"), "unit_side");
  for (int side : classes.unit_side)
    if (side < 0 || side >= classes.class_count) read.refuse("\"unit_side\" names a class that does not exist");
  const Json& class_list = read.at(*entry, "classes");
  if (!class_list.is_array()) read.refuse("\"classes\" is not a list");
  for (const Json& c : class_list)
    classes.class_unit_ns.push_back(read.latencies(read.at(c, "median_ns_by_unit"), "median_ns_by_unit"));
  for (int id : read.integers(read.at(*entry, "units"), "units")) {
    const int sm = unit_ref(id, run_device).unit;
    if (!sms.contains(sm)) read.refuse(fmt::format("\"units\" names SM {}, which GPU {} does not have", sm, gpu));
    s->homes.unit_ids.push_back(id);
    s->sm_refs.push_back({gpu, sm});
  }
  if (classes.unit_side.size() != s->sm_refs.size() ||
      classes.class_unit_ns.size() != static_cast<std::size_t>(classes.class_count))
    throw Error(fmt::format("{}/homes.json does not hold a side and a latency per class for every unit", run_dir));
  for (const auto& profile : classes.class_unit_ns)
    if (profile.size() != s->sm_refs.size())
      throw Error(fmt::format("{}/homes.json does not hold a latency per class for every unit", run_dir));
  s->homes.device = gpu;
  s->homes.table.units = s->sm_refs;
  index_sms(*s);
  s->backend = std::move(backend);
  return Chip(std::move(s));
}

}  // namespace cumap::place
