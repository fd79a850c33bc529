// `cumap check-coherence [--reader N --writer M]`: which loads see another unit's store.
#include <memory>

#include "cli/option_binding.hpp"
#include "cli/option_checks.hpp"
#include "cli/registration.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {

Registration register_check_coherence(CLI::App& app) {
  auto parse = std::make_shared<CommandParse<CoherenceCommand>>();
  CoherenceCommand& c = parse->command;
  CLI::App* sub =
      app.add_subcommand("check-coherence", "which load/store operators see another SM's store (GPU L1 coherence)");
  parse->bound = std::make_unique<BoundOptions>(*sub, map_option_rows(), kDeviceCommand, c.options);
  sub->add_option("--reader", c.reader, "unit that caches the line (default: the first)");
  sub->add_option("--writer", c.writer, "unit that stores to it (default: the last)");
  sub->add_option("--window-ms", c.window_ms, "how long the reader looks for the new value (at most an hour)")
      ->capture_default_str();
  sub->add_option("--json", c.json_out, "also write the table as JSON to this file");
  return {[sub] { return sub->parsed(); },
          [&app, sub, parse](const std::string&) -> Command {
            apply_device_options(app, *sub, *parse->bound, parse->command.options);
            const CoherenceCommand& coherence = parse->command;
            if (const auto problem = kWaitMs.problem("--window-ms", coherence.window_ms)) throw UsageError(*problem);
            if (coherence.json_out) check_output_path("--json", *coherence.json_out);
            return coherence;
          }};
}

}  // namespace cumap::cli
