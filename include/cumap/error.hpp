#pragma once
#include <stdexcept>
#include <string>

namespace cumap {

// Exit codes are part of the interface: scripts tell bad input from a broken device.
enum ExitCode : int {
  kExitOk = 0,
  kExitRuntime = 1,   // the device or runtime failed
  kExitUsage = 2,     // the user asked for something invalid; nothing was written
  kExitDifferent = 1,  // cumap compare: the two runs differ beyond the threshold
  kExitTimedOut = 3,  // the map was written, but some pairs (or all: "no pair completed") timed out
};

// Bad input from the user (flags, unit lists, files to render): exit 2, one line.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A device, driver or operating-system call failed: exit 1.
struct RuntimeFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace cumap
