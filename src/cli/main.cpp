#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cumap/error.hpp"
#include "core/printable.hpp"

namespace {

int dispatch(const cumap::cli::Command& command) {
  using namespace cumap::cli;
  return std::visit(
      [](const auto& c) -> int {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, MapCommand>) return run_map(c);
        else if constexpr (std::is_same_v<T, HomesCommand>) return run_homes(c);
        else if constexpr (std::is_same_v<T, SyncCommand>) return run_sync(c);
        else if constexpr (std::is_same_v<T, RenderCommand>) {
          cumap::render_csv_file(c.request);
          return cumap::kExitOk;
        } else if constexpr (std::is_same_v<T, TopologyCommand>) return run_topology(c);
        else if constexpr (std::is_same_v<T, CoherenceCommand>) return run_check_coherence(c);
        else if constexpr (std::is_same_v<T, ListDevicesCommand>) return run_list_devices(c);
        else if constexpr (std::is_same_v<T, SummaryCommand>) return run_summary_command(c);
        else if constexpr (std::is_same_v<T, CompareCommand>) return run_compare_command(c);
        else if constexpr (std::is_same_v<T, QueryCommand>) return run_query_command(c);
        else return c.exit_code;
      },
      command);
}

// Every message is one line, whatever made it: user input quoted in it is
// already shortened where it was quoted; this is the net for the rest.
std::string one_line(const char* message) { return cumap::printable_excerpt(message, 2000); }

int run(int argc, char** argv) {
  try {
    return dispatch(cumap::cli::parse_command_line(argc, argv));
  } catch (const cumap::UsageError& e) {
    fmt::print(stderr, "cumap: error: {}\n", one_line(e.what()));
    return cumap::kExitUsage;
  } catch (const cumap::RuntimeFailure& e) {
    fmt::print(stderr, "cumap: failed: {}\n", one_line(e.what()));
    return cumap::kExitRuntime;
  } catch (const std::exception& e) {
    fmt::print(stderr, "cumap: internal error: {}\n", one_line(e.what()));
    return cumap::kExitRuntime;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int code = run(argc, argv);
  // The command has ended and its files are whole: a signal from here on
  // (a second Ctrl-C as the process exits) must not change the exit code.
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_IGN);
  return code;
}
