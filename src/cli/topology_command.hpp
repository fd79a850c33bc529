#pragma once
#include "cli/command_line.hpp"

namespace cumap::cli {

// `cumap topology`: prints the groups the backend discovered, and how.
int run_topology(const TopologyCommand& command);

// `cumap --list-devices`: one line per built backend.
int run_list_devices(const ListDevicesCommand& command);

}  // namespace cumap::cli
