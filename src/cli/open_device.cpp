#include "cli/open_device.hpp"

#include <fmt/format.h>

#include "publish/output_directory.hpp"

namespace cumap::cli {

OpenedBackend open_measured_device(Options& o, std::size_t min_units) {
  OpenedBackend opened = open_backend(o, min_units);
  o.device = opened.device_index;
  if (!o.quiet && !opened.backend_choice.empty()) fmt::print(stderr, "cumap: note: {}\n", opened.backend_choice);
  return opened;
}

std::unique_ptr<Backend> open_checked_device(const Options& o, const std::optional<std::filesystem::path>& json_out) {
  if (json_out) check_output_file(*json_out);
  return make_backend(DeviceSelection{o.backend, o.device, o.hip_unit});
}

}  // namespace cumap::cli
