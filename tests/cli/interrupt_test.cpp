#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "cli/interrupt.hpp"
#include "publish/temp_files.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

TEST(Interrupt, FirstSignalOnlyRequestsAStop) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    InterruptHandler handler;
    EXPECT_FALSE(handler.stop_requested());
    ASSERT_EQ(::raise(sig), 0);  // the process survives: the handler only records it
    EXPECT_TRUE(handler.stop_requested());
    EXPECT_EQ(handler.signal_number(), sig);
  }
}

TEST(Interrupt, OnlyOneHandlerAtATime) {
  InterruptHandler handler;
  EXPECT_THROW(InterruptHandler second, std::logic_error);
}

TEST(Interrupt, NeverStopNeverStops) { EXPECT_FALSE(NeverStop{}.stop_requested()); }

// The second signal exits 130 at once and removes the registered temporary
// files, and only those. Run in a forked child (a "fast" death test, so
// that the child sees this test's directory).
TEST(InterruptDeathTest, SecondSignalRemovesTempFilesAndExits130) {
  GTEST_FLAG_SET(death_test_style, "fast");
  const test::TempDir tmp;
  const fs::path temp = tmp.path() / "half-written.tmp";
  const fs::path kept = tmp.path() / "finished.csv";
  EXPECT_EXIT(
      {
        std::ofstream(temp) << "partial";
        std::ofstream(kept) << "done";
        InterruptHandler handler;
        RegisteredTempFile registration(temp);
        ::raise(SIGINT);
        if (!handler.stop_requested()) ::_exit(1);
        ::raise(SIGTERM);
        ::_exit(2);  // not reached: the second signal exits
      },
      ::testing::ExitedWithCode(InterruptHandler::kExitInterrupted), "interrupted again");
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_TRUE(fs::exists(kept));
}

}  // namespace
}  // namespace cumap
