// `cumap barrier` and `cumap contention`: the device and home options of a
// map, --probe and --timeout-ms, and their own (sync_option_rows).
#include <memory>

#include "cli/option_binding.hpp"
#include "cli/option_checks.hpp"
#include "cli/registration.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {
namespace {

Registration register_sync(CLI::App& app, bool contention) {
  auto parse = std::make_shared<CommandParse<SyncCommand>>();
  SyncOptions& o = parse->command.options;
  o.contention = contention;
  o.common.out_dir = contention ? SyncOptions::kContentionOut : SyncOptions::kBarrierOut;
  const OptionGroups groups = contention ? kContentionCommand : kBarrierCommand;
  CLI::App* sub = app.add_subcommand(
      contention ? "contention" : "barrier",
      contention ? "k units performing dependent atomics (cas, add) on one line, near and far homes, k swept: "
                   "latency per operation and aggregate rate"
                 : "what a barrier of k units costs, by implementation, participant set and counter home, k swept");
  parse->bound = std::make_unique<BoundOptions>(*sub, sync_option_rows(), groups, o.common, &o);
  return {[sub] { return sub->parsed(); },
          [&app, sub, parse, groups](const std::string& command_line) -> Command {
            SyncOptions& o = parse->command.options;
            apply_device_options(app, *sub, *parse->bound, o.common);
            check_home_flags(*sub, o.common, "measure with every unit");
            if (o.common.probe == Probe::Mbarrier)
              throw UsageError(
                  "--probe mbarrier exists only with --via dsm; barriers poll with cas, exch, acq-rel or volatile");
            check_ranges(sync_option_rows(), groups, o.common, &o);
            validate_options(o.common);
            parse->command.command_line = command_line;
            return parse->command;
          }};
}

}  // namespace

Registration register_barrier(CLI::App& app) { return register_sync(app, false); }
Registration register_contention(CLI::App& app) { return register_sync(app, true); }

}  // namespace cumap::cli
