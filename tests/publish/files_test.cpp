#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "publish/atomic_file.hpp"
#include "publish/output_directory.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;

namespace cumap {
namespace {

std::string contents(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(WriteFileAtomic, WritesAndReplacesLeavingNoTempFile) {
  const test::TempDir tmp;
  const fs::path file = tmp.path() / "map.csv";
  write_file_atomic(file, "first\n");
  EXPECT_EQ(contents(file), "first\n");
  write_file_atomic(file, "second, longer content\n");
  EXPECT_EQ(contents(file), "second, longer content\n");
  write_file_atomic(file, "");
  EXPECT_EQ(contents(file), "");
  EXPECT_EQ(entries(tmp.path()), 1u);  // no .tmp-<pid> left beside it
}

TEST(WriteFileAtomic, FailureThrowsRuntimeFailureNamingThePath) {
  const test::TempDir tmp;
  const fs::path file = tmp.path() / "missing-dir" / "map.csv";
  try {
    write_file_atomic(file, "x");
    ADD_FAILURE() << "no error";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos);
  }
  EXPECT_EQ(entries(tmp.path()), 0u);
}

TEST(WriteFileAtomic, DirectoryInThePlaceIsRefusedLeavingNoTempFile) {
  const test::TempDir tmp;
  const fs::path target = tmp.path() / "occupied";
  fs::create_directories(target / "child");
  // Bad input, refused before a temporary file is made: nothing is left beside it.
  EXPECT_THROW(write_file_atomic(target, "x"), UsageError);
  EXPECT_EQ(entries(tmp.path()), 1u);
  EXPECT_TRUE(fs::is_directory(target / "child"));
}

TEST(KeptOutputDirectory, CreatesNestedDirectoriesAndLeavesNoProbe) {
  const test::TempDir tmp;
  const fs::path out = tmp.path() / "a" / "b";
  OutputDirectory(out).keep();
  EXPECT_TRUE(fs::is_directory(out));
  EXPECT_EQ(entries(out), 0u);
  OutputDirectory(out).keep();  // existing is fine too
  EXPECT_EQ(entries(out), 0u);
}

TEST(KeptOutputDirectory, FailsUnderARegularFileAndCreatesNothing) {
  // chmod cannot stop root from writing; a path below a regular file fails for everyone.
  const test::TempDir tmp;
  const fs::path file = tmp.path() / "plain";
  write_file_atomic(file, "not a directory");
  const fs::path out = file / "sub" / "deeper";
  try {
    OutputDirectory(out).keep();
    ADD_FAILURE() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write to output directory " + out.string()), std::string::npos);
  }
  EXPECT_EQ(entries(tmp.path()), 1u);
  EXPECT_EQ(contents(file), "not a directory");
}

TEST(KeptOutputDirectory, RejectsAFileInPlaceOfTheDirectory) {
  const test::TempDir tmp;
  const fs::path file = tmp.path() / "plain";
  write_file_atomic(file, "x");
  EXPECT_THROW(OutputDirectory(file).keep(), UsageError);
  EXPECT_TRUE(fs::is_regular_file(file));
}

TEST(KeptOutputDirectory, RemovesTheDirectoriesItMadeWhenTheyAreUnwritable) {
  if (::geteuid() == 0) GTEST_SKIP() << "root can write into a read-only directory";
  const test::TempDir tmp;
  // With this umask every new directory comes out read-only: mkdir succeeds,
  // then the probe file (or the next level) cannot be created.
  const mode_t old_mask = ::umask(0222);
  EXPECT_THROW(OutputDirectory(tmp.path() / "single").keep(), UsageError);
  EXPECT_THROW(OutputDirectory(tmp.path() / "new" / "deeper").keep(), UsageError);
  ::umask(old_mask);
  EXPECT_EQ(entries(tmp.path()), 0u);
}

}  // namespace
}  // namespace cumap
