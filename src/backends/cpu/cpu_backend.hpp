#pragma once
#include <filesystem>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "cumap/backend.hpp"

namespace cumap {

// Pinned threads and std::atomic: runs anywhere, and is what `--backend auto`
// falls back to when no GPU backend has a device. Device 0 only; `--unit wgp`
// is a UsageError.
std::unique_ptr<Backend> make_cpu_backend(const DeviceSelection& selection);

namespace cpu {

// The backend as it would be where the sysfs CPU tree is `sysfs_cpu_root`
// and this process may run on `cpus`: its physical-core keys and topology
// come from that tree. For tests, which give it the fixture trees of
// tests/data/sysfs; make_cpu_backend reads /sys/devices/system/cpu and the
// process's affinity.
std::unique_ptr<Backend> make_cpu_backend_on(const std::filesystem::path& sysfs_cpu_root, std::vector<int> cpus);

// The device's name from /proc/cpuinfo's text: the first "model name" with
// a value, trimmed; "unknown CPU" where there is none (some virtual
// machines and architectures leave it empty or out).
std::string cpu_model_name(std::istream& cpuinfo);

}  // namespace cpu

}  // namespace cumap
