// `cumap --list-devices` and `cumap --version`: flags of the top-level app
// that answer instead of mapping.
#include <memory>

#include "cli/option_checks.hpp"
#include "cli/registration.hpp"

namespace cumap::cli {

void register_version(CLI::App& app) { app.set_version_flag("--version", std::string("cumap ") + CUMAP_VERSION); }

Registration register_list_devices(CLI::App& app, std::function<Options()> map_options) {
  auto listing = std::make_shared<bool>(false);
  CLI::Option* flag = app.add_flag("--list-devices", *listing, "list the devices each built backend can see");
  return {[listing] { return *listing; },
          [&app, flag, map_options](const std::string&) -> Command {
            // --backend is replaced by every built backend in turn; --device and --unit apply.
            CLI::Option* device = app.get_option("--device");
            reject_top_level_options(app, "--list-devices", {flag, device, app.get_option("--unit")});
            return ListDevicesCommand{map_options(), device->count() > 0};
          }};
}

}  // namespace cumap::cli
