// `cumap topology [--json FILE]`: the discovered layout of the device's units.
#include <memory>

#include "cli/option_binding.hpp"
#include "cli/option_checks.hpp"
#include "cli/registration.hpp"

namespace cumap::cli {

Registration register_topology(CLI::App& app) {
  auto parse = std::make_shared<CommandParse<TopologyCommand>>();
  CLI::App* sub = app.add_subcommand("topology", "print the discovered layout of the device's units");
  parse->bound = std::make_unique<BoundOptions>(*sub, map_option_rows(), kDeviceCommand, parse->command.options);
  sub->add_option("--json", parse->command.json_out, "also write the layout as JSON to this file");
  return {[sub] { return sub->parsed(); },
          [&app, sub, parse](const std::string&) -> Command {
            apply_device_options(app, *sub, *parse->bound, parse->command.options);
            const TopologyCommand& topology = parse->command;
            if (topology.json_out) check_output_path("--json", *topology.json_out);
            return topology;
          }};
}

}  // namespace cumap::cli
