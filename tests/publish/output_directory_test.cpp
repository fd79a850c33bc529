#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "publish/output_directory.hpp"
#include "publish/atomic_file.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace output_directory_test {  // named, not anonymous: tests/CMakeLists.txt (unity batches)

namespace fs = std::filesystem;

std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(dir)) ++n;
  return n;
}

TEST(OutputDirectory, CreatesTheChainAndRemovesExactlyItOnFailure) {
  const test::TempDir tmp;
  fs::create_directory(tmp.path() / "n1");
  {
    OutputDirectory out(tmp.path() / "n1" / "a" / "b");
    EXPECT_TRUE(fs::is_directory(tmp.path() / "n1" / "a" / "b"));
    ASSERT_EQ(out.created_directories().size(), 2u);  // a and a/b; n1 existed
    EXPECT_EQ(out.created_directories().front(), tmp.path() / "n1" / "a");
  }  // no keep(): the run failed
  EXPECT_TRUE(fs::is_directory(tmp.path() / "n1")) << "n1 existed before and must stay";
  EXPECT_FALSE(fs::exists(tmp.path() / "n1" / "a"));
}

TEST(OutputDirectory, KeepLeavesEverything) {
  const test::TempDir tmp;
  {
    OutputDirectory out(tmp.path() / "x" / "y");
    out.write("m.csv", "1\n");
    out.keep();
  }
  EXPECT_TRUE(fs::is_regular_file(tmp.path() / "x" / "y" / "m.csv"));
}

TEST(OutputDirectory, DiscardRemovesNewFilesButNotOlderOnes) {
  const test::TempDir tmp;
  const fs::path dir = tmp.path() / "out";
  fs::create_directory(dir);
  std::ofstream(dir / "earlier.csv") << "from an earlier run\n";
  {
    OutputDirectory out(dir);
    EXPECT_TRUE(out.created_directories().empty());
    out.write("new.csv", "new\n");
  }
  EXPECT_FALSE(fs::exists(dir / "new.csv"));
  EXPECT_TRUE(fs::is_regular_file(dir / "earlier.csv"));
  EXPECT_TRUE(fs::is_directory(dir));
}

TEST(OutputDirectory, NeverRemovesWhatOthersPutIntoACreatedDirectory) {
  const test::TempDir tmp;
  {
    OutputDirectory out(tmp.path() / "a" / "b");
    std::ofstream(tmp.path() / "a" / "someone-elses.txt") << "x";
  }
  EXPECT_TRUE(fs::is_regular_file(tmp.path() / "a" / "someone-elses.txt"));
  EXPECT_FALSE(fs::exists(tmp.path() / "a" / "b"));
}

TEST(OutputDirectory, DanglingSymlinkIsAUsageErrorAndStays) {
  const test::TempDir tmp;
  const fs::path link = tmp.path() / "L";
  fs::create_symlink("/nonexistent/t", link);
  try {
    OutputDirectory out(link);
    ADD_FAILURE() << "a dangling link was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link))) << "the user's link was removed";
  EXPECT_THROW(OutputDirectory(link).keep(), UsageError);
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_THROW(OutputDirectory(link / "sub").keep(), UsageError);
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_EQ(entries(tmp.path()), 1u);
}

TEST(OutputDirectory, SymlinkToADirectoryIsFollowed) {
  const test::TempDir tmp;
  fs::create_directory(tmp.path() / "real");
  fs::create_directory_symlink(tmp.path() / "real", tmp.path() / "L");
  {
    OutputDirectory out(tmp.path() / "L" / "sub");
    ASSERT_EQ(out.created_directories().size(), 1u);
  }
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(tmp.path() / "L")));
  EXPECT_FALSE(fs::exists(tmp.path() / "real" / "sub"));
}

TEST(OutputDirectory, UnderARegularFileFailsAndCreatesNothing) {
  const test::TempDir tmp;
  std::ofstream(tmp.path() / "afile") << "x";
  EXPECT_THROW(OutputDirectory(tmp.path() / "d" / "afile-sibling" / ".." / ".." / "afile" / "out"), UsageError);
  EXPECT_EQ(entries(tmp.path()), 1u) << "d/ and d/afile-sibling/ made on the way must be removed again";
}

TEST(OutputDirectory, TooLongANameIsAUsageError) {
  const test::TempDir tmp;
  EXPECT_THROW(OutputDirectory(tmp.path() / "ok" / std::string(300, 'n')), UsageError);
  EXPECT_EQ(entries(tmp.path()), 0u);
}

TEST(CheckOutputFile, RejectsDirectoriesMissingFoldersAndEmptyNames) {
  const test::TempDir tmp;
  fs::create_directory(tmp.path() / "dir");
  std::ofstream(tmp.path() / "afile") << "x";
  EXPECT_THROW(check_output_file(""), UsageError);
  EXPECT_THROW(check_output_file(tmp.path() / "dir"), UsageError);
  EXPECT_THROW(check_output_file(tmp.path() / "missing" / "x.png"), UsageError);
  EXPECT_THROW(check_output_file(tmp.path() / "afile" / "x.png"), UsageError);
  EXPECT_THROW(check_output_file(tmp.path() / std::string(300, 'n')), UsageError);
  EXPECT_NO_THROW(check_output_file(tmp.path() / "x.png"));
  EXPECT_NO_THROW(check_output_file(tmp.path() / "afile"));  // replacing a file is writing it
  if (::geteuid() != 0) {
    fs::permissions(tmp.path() / "dir", fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_THROW(check_output_file(tmp.path() / "dir" / "x.png"), UsageError);
    fs::permissions(tmp.path() / "dir", fs::perms::owner_all);
  }
}

TEST(WriteFileAtomic, NeverWritesThroughASymlinkInTheTempName) {
  const test::TempDir tmp;
  // Someone's file where a careless temporary name would point.
  std::ofstream(tmp.path() / "victim") << "precious";
  for (int attempt = 0; attempt < 3; ++attempt)
    fs::create_symlink(tmp.path() / "victim",
                       tmp.path() / (".m.csv.cumap-tmp-" + std::to_string(::getpid()) + "-" + std::to_string(attempt)));
  write_file_atomic(tmp.path() / "m.csv", "data\n");
  std::ifstream victim(tmp.path() / "victim");
  std::string text;
  std::getline(victim, text);
  EXPECT_EQ(text, "precious");
  std::ifstream written(tmp.path() / "m.csv");
  std::getline(written, text);
  EXPECT_EQ(text, "data");
}

}  // namespace
}  // namespace cumap
