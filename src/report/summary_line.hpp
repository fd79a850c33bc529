#pragma once
#include <filesystem>
#include <string>

#include "core/run_summary.hpp"

namespace cumap {

// The console's last line of a map: device, units, home classes (not on the
// dsm path, which has none), each placement's headline median and range, the
// one-way latency by where same-line pairs sit relative to the flag's home
// (with two or more classes), across GPUs the median between each two, and
// where the files went.
std::string map_summary_line(const RunSummary& summary, const std::filesystem::path& out_dir);

}  // namespace cumap
