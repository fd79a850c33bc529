#pragma once
// Opening the device a command runs on: the measuring commands' (a map,
// `cumap homes`, barrier and contention) with every option of home
// discovery, the checks' (topology, check-coherence) as --backend, --device
// and --unit select it.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>

#include "cumap/backend.hpp"
#include "cumap/options.hpp"
#include "run/map_run.hpp"

namespace cumap::cli {

// open_backend's device, which `o.device` names from then on (the one GPU
// of --devices stands for --device); why --backend auto chose that backend,
// where a user likely expected another, is a note on stderr unless --quiet.
OpenedBackend open_measured_device(Options& o, std::size_t min_units = 1);

// Opened once `json_out`, the file the check writes last, is known to be
// writable: a file that cannot be written is bad input, said before the
// probing rather than after it.
std::unique_ptr<Backend> open_checked_device(const Options& o, const std::optional<std::filesystem::path>& json_out);

}  // namespace cumap::cli
