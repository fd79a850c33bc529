// CPU layout from Linux sysfs (/sys/devices/system/cpu/cpuN/topology). Cores
// of one package and die share the last-level interconnect, which is what the
// latency map shows as blocks. Containers and odd kernels often hide these
// files, so anything missing degrades to one group, never to an error.
#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "core/topology_discovery.hpp"
#include "core/units.hpp"
#include "backends/cpu/physical_cores.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

// First whitespace-delimited token of a one-line sysfs file; nullopt if absent.
std::optional<std::string> read_token(const fs::path& file) {
  std::ifstream in(file);
  std::string token;
  if (!in || !(in >> token)) return std::nullopt;
  return token;
}

std::optional<int> read_int(const fs::path& file) {
  auto token = read_token(file);
  if (!token) return std::nullopt;
  try {
    return std::stoi(*token);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// sysfs cpu lists ("0,8", "0-3,8-11") use the same syntax as --units.
std::optional<std::vector<int>> read_cpu_list(const fs::path& file) {
  auto token = read_token(file);
  if (!token) return std::nullopt;
  try {
    return parse_unit_list(*token, std::numeric_limits<int>::max());
  } catch (const UsageError&) {
    return std::nullopt;
  }
}

struct CpuPlace {
  int cpu = 0;
  int package = 0;
  std::optional<int> die;  // die_id appeared in Linux 5.x; older kernels lack it
  int core = 0;
  std::vector<int> smt_siblings;
};

// One cpu's place, or the path of the first file that could not be read.
std::variant<CpuPlace, fs::path> read_cpu_place(const fs::path& cpu_root, int cpu) {
  const fs::path dir = cpu_root / fmt::format("cpu{}", cpu) / "topology";
  CpuPlace place;
  place.cpu = cpu;
  auto package = read_int(dir / "physical_package_id");
  if (!package) return dir / "physical_package_id";
  auto core = read_int(dir / "core_id");
  if (!core) return dir / "core_id";
  // core_cpus_list is the newer name of the same set; either will do.
  auto siblings = read_cpu_list(dir / "thread_siblings_list");
  if (!siblings) siblings = read_cpu_list(dir / "core_cpus_list");
  if (!siblings) return dir / "thread_siblings_list";
  place.package = *package;
  place.core = *core;
  place.die = read_int(dir / "die_id");
  place.smt_siblings = std::move(*siblings);
  return place;
}

// The cpus sharing a level-3 cache with `cpu`, if sysfs lists one.
std::optional<std::vector<int>> read_l3_sharing(const fs::path& cpu_root, int cpu) {
  const fs::path cache = cpu_root / fmt::format("cpu{}", cpu) / "cache";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(cache, ec)) {
    if (entry.path().filename().string().rfind("index", 0) != 0) continue;
    if (read_int(entry.path() / "level") != 3) continue;
    return read_cpu_list(entry.path() / "shared_cpu_list");
  }
  return std::nullopt;
}

Topology single_group_fallback(std::vector<int> cpus, const std::string& reason) {
  Topology topo;
  topo.source = "none";
  topo.groups.push_back({"all", std::move(cpus)});
  topo.details = {{"reason", reason}};
  return topo;
}

}  // namespace

Topology cpu_topology_from_sysfs(const std::filesystem::path& cpu_root, const std::vector<int>& cpus) {
  std::vector<int> sorted_cpus = cpus;
  std::sort(sorted_cpus.begin(), sorted_cpus.end());
  sorted_cpus.erase(std::unique(sorted_cpus.begin(), sorted_cpus.end()), sorted_cpus.end());

  std::vector<CpuPlace> places;
  for (int cpu : sorted_cpus) {
    auto place = read_cpu_place(cpu_root, cpu);
    if (auto* missing = std::get_if<fs::path>(&place))
      return single_group_fallback(sorted_cpus, fmt::format("cannot read {}", missing->string()));
    places.push_back(std::get<CpuPlace>(std::move(place)));
  }

  // std::map keyed by (package, die) gives the display order: package, then die.
  // A missing die_id sorts as -1 and is left out of the name.
  std::map<std::pair<int, int>, UnitGroup> by_domain;
  nlohmann::json per_cpu = nlohmann::json::array();
  std::set<std::vector<int>> l3_domains;
  for (const auto& p : places) {
    const int die = p.die.value_or(-1);
    auto& group = by_domain[{p.package, die}];
    if (group.name.empty())
      group.name = p.die ? fmt::format("pkg{}/die{}", p.package, *p.die) : fmt::format("pkg{}", p.package);
    group.units.push_back(p.cpu);  // places are in ascending cpu order

    nlohmann::json entry = {{"cpu", p.cpu}, {"package", p.package}, {"core", p.core},
                            {"smt_siblings", p.smt_siblings}};
    entry["die"] = p.die ? nlohmann::json(*p.die) : nlohmann::json(nullptr);
    per_cpu.push_back(std::move(entry));

    if (auto shared = read_l3_sharing(cpu_root, p.cpu)) l3_domains.insert(std::move(*shared));
  }

  Topology topo;
  topo.source = "sysfs";
  for (auto& [key, group] : by_domain) topo.groups.push_back(std::move(group));
  topo.details = {{"cpus", std::move(per_cpu)}};
  // Sets of sorted lists order by first cpu, a stable order for display.
  if (!l3_domains.empty())
    topo.details["l3_domains"] = std::vector<std::vector<int>>(l3_domains.begin(), l3_domains.end());
  return topo;
}

namespace cpu {

std::map<int, int> physical_core_keys(const std::filesystem::path& cpu_root, const std::vector<int>& cpus) {
  std::map<std::tuple<int, int, int>, int> key_of_core;  // (package, die, core) -> dense key
  std::map<int, int> keys;
  for (int cpu : cpus) {
    auto place = read_cpu_place(cpu_root, cpu);
    if (std::holds_alternative<fs::path>(place)) {
      // No topology: each CPU its own core (a guess that may let SMT siblings share a round).
      keys.clear();
      for (int c : cpus) keys[c] = c;
      return keys;
    }
    const CpuPlace& p = std::get<CpuPlace>(place);
    const auto core = std::make_tuple(p.package, p.die.value_or(-1), p.core);
    keys[cpu] = key_of_core.try_emplace(core, static_cast<int>(key_of_core.size())).first->second;
  }
  return keys;
}

}  // namespace cpu
}  // namespace cumap
