// `cumap homes`: home discovery alone, with the device and home options of a map.
#include <memory>

#include "cli/option_binding.hpp"
#include "cli/option_checks.hpp"
#include "cli/registration.hpp"

namespace cumap::cli {

Registration register_homes(CLI::App& app) {
  auto parse = std::make_shared<CommandParse<HomesCommand>>();
  CLI::App* sub = app.add_subcommand(
      "homes", "home discovery alone (the first step of every map): the flag lines' home classes, the units' sides");
  parse->bound = std::make_unique<BoundOptions>(*sub, map_option_rows(), kHomesCommand, parse->command.options);
  return {[sub] { return sub->parsed(); },
          [&app, sub, parse](const std::string& command_line) -> Command {
            HomesCommand& homes = parse->command;
            apply_device_options(app, *sub, *parse->bound, homes.options);
            check_home_flags(*sub, homes.options, "probe from every unit");
            validate_options(homes.options);
            homes.command_line = command_line;
            return homes;
          }};
}

}  // namespace cumap::cli
