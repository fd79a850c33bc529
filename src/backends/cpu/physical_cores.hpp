#pragma once
#include <filesystem>
#include <map>
#include <vector>

namespace cumap::cpu {

// Per CPU, a key shared by the SMT siblings of one physical core (read from
// sysfs topology: package, die and core id) and by nobody else. Two pairs on
// siblings of one core would measure each other, so a round must not use one
// key twice. Where sysfs says nothing, every CPU is taken as its own core.
std::map<int, int> physical_core_keys(const std::filesystem::path& cpu_root, const std::vector<int>& cpus);

}  // namespace cumap::cpu
