// `cumap --list-devices` and `cumap --version`: flags of the top-level app
// that answer instead of mapping.
#include <memory>

#include <fmt/format.h>

#include "cli/option_checks.hpp"
#include "cli/registration.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {

Registration register_version(CLI::App& app) {
  // A plain flag rather than CLI11's version flag, which answers as soon as
  // it is read, so that `cumap --version foo` exited 0 without a word about foo.
  auto asked = std::make_shared<bool>(false);
  CLI::Option* flag = app.add_flag("--version", *asked, "Display program version information and exit");
  return {[asked] { return *asked; },
          [&app, flag](const std::string&) -> Command {
            reject_top_level_options(app, "--version", {flag});
            if (!app.get_subcommands().empty())
              throw UsageError(
                  fmt::format("--version takes no command (got {})", app.get_subcommands().front()->get_name()));
            fmt::print("cumap {}\n", CUMAP_VERSION);
            return Answered{kExitOk};
          }};
}

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
