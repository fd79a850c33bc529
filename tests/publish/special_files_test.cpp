// Never destroy what is not ours: an output path that holds something other
// than a regular file (a named pipe, a symbolic link, a socket, a device) is
// refused before any work and never renamed over; an output set replaces
// only a set of its own kind unless told to, gets the permissions a plain
// mkdir and write would give it, keeps those of the set it replaces, and
// clears what runs that died left beside it.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "publish/atomic_file.hpp"
#include "publish/output_directory.hpp"
#include "publish/output_set.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

// A socket bound at `path`, closed again: the node stays.
void make_socket(const fs::path& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.native().size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  ::close(fd);
}

TEST(OutputFile, WhatIsNotARegularFileIsRefusedAndLeftAsItWas) {
  const test::TempDir tmp;
  ASSERT_EQ(::mkfifo((tmp.path() / "f.json").c_str(), 0600), 0);
  std::ofstream(tmp.path() / "target.json") << "the link's target\n";
  fs::create_symlink("target.json", tmp.path() / "link.json");
  make_socket(tmp.path() / "s.json");
  struct Case {
    fs::path path;
    std::string says;
  };
  for (const Case& c : {Case{tmp.path() / "f.json", "named pipe"}, Case{tmp.path() / "link.json", "symbolic link"},
                        Case{tmp.path() / "s.json", "socket"}, Case{"/dev/null", "device"}}) {
    SCOPED_TRACE(c.path.string());
    EXPECT_NE(usage_message([&] { check_output_file(c.path); }).find(c.says), std::string::npos);
    // The writer refuses too, should the path change after the check.
    if (c.path != "/dev/null")
      EXPECT_NE(usage_message([&] { write_file_atomic(c.path, "{}\n"); }).find(c.says), std::string::npos);
  }
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(tmp.path() / "f.json")));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(tmp.path() / "link.json")));
  EXPECT_EQ(read_all(tmp.path() / "target.json"), "the link's target\n");
  EXPECT_TRUE(fs::is_socket(fs::symlink_status(tmp.path() / "s.json")));
  // Nothing was left beside them: no temporary file.
  for (const auto& e : fs::directory_iterator(tmp.path()))
    EXPECT_EQ(e.path().filename().string().find(".cumap-tmp-"), std::string::npos) << e.path();
}

// A regular file with other hard links is replaced by name: the other
// names keep what they held (as when any editor saves by renaming).
TEST(OutputFile, AHardLinkedFileIsReplacedByNameOnly) {
  const test::TempDir tmp;
  std::ofstream(tmp.path() / "a.json") << "old\n";
  fs::create_hard_link(tmp.path() / "a.json", tmp.path() / "snapshot.json");
  EXPECT_NO_THROW(check_output_file(tmp.path() / "a.json"));
  write_file_atomic(tmp.path() / "a.json", "new\n");
  EXPECT_EQ(read_all(tmp.path() / "a.json"), "new\n");
  EXPECT_EQ(read_all(tmp.path() / "snapshot.json"), "old\n");
}

TEST(OutputFile, AMissingDirectoryIsNamed) {
  const test::TempDir tmp;
  const std::string message = usage_message([&] { check_output_file(tmp.path() / "missing" / "t.json"); });
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
}

void write_set(const fs::path& dir, const std::string& meta) {
  OutputSet out(dir);
  out.write("meta.json", meta);
  out.write("pairs.csv", "a,b\n");
  out.publish();
}

// `cumap barrier --out <a map's set>` deleted the map: a set of another
// kind is replaced only with --replace, and the message says so.
TEST(OutputSetKind, ASetOfAnotherKindIsReplacedOnlyWhenAskedTo) {
  const test::TempDir tmp;
  const fs::path dir = tmp.path() / "D";
  write_set(dir, R"({"tool": "cumap", "kind": "map"})");
  const std::string message = usage_message([&] { OutputSet out(dir, OutputKind::Barrier); });
  EXPECT_NE(message.find("a map set"), std::string::npos) << message;
  EXPECT_NE(message.find("--replace"), std::string::npos) << message;
  EXPECT_TRUE(fs::exists(dir / "pairs.csv"));
  EXPECT_NO_THROW(OutputSet(dir, OutputKind::Map));
  EXPECT_NO_THROW(OutputSet(dir, OutputKind::Barrier, /*replace=*/true));
  // A set of an earlier cumap, without "kind": told by what it holds.
  write_set(dir, R"({"tool": "cumap", "command": "contention"})");
  EXPECT_NE(usage_message([&] { OutputSet out(dir, OutputKind::Map); }).find("a contention set"), std::string::npos);
  EXPECT_NO_THROW(OutputSet(dir, OutputKind::Contention));
  write_set(dir, R"({"tool": "cumap", "maps": []})");
  EXPECT_NE(usage_message([&] { OutputSet out(dir, OutputKind::Homes); }).find("a map set"), std::string::npos);
  write_set(dir, R"({"tool": "cumap", "homes": {}})");
  EXPECT_NE(usage_message([&] { OutputSet out(dir, OutputKind::Map); }).find("a homes set"), std::string::npos);
  write_set(dir, R"({"tool": "cumap"})");
  EXPECT_NE(usage_message([&] { OutputSet out(dir, OutputKind::Map); }).find("does not say"), std::string::npos);
  // Not cumap's at all: never, --replace or not.
  write_set(dir, R"({"tool": 7})");
  EXPECT_NE(usage_message([&] { OutputSet out(dir, OutputKind::Map, true); }).find("not a cumap output set"),
            std::string::npos);
}

// meta.json of the set to replace is read through the checked reader: a
// named pipe there once blocked the run forever.
TEST(OutputSetKind, AMetaJsonThatIsNotAFileIsRefusedAtOnce) {
  const test::TempDir tmp;
  const fs::path dir = tmp.path() / "D";
  fs::create_directory(dir);
  std::ofstream(dir / "pairs.csv") << "a,b\n";
  ASSERT_EQ(::mkfifo((dir / "meta.json").c_str(), 0600), 0);
  EXPECT_NE(usage_message([&] { OutputSet out(dir, OutputKind::Map); }).find("named pipe"), std::string::npos);
  fs::remove(dir / "meta.json");
  fs::create_directory(dir / "meta.json");
  EXPECT_NE(usage_message([&] { OutputSet out(dir, OutputKind::Map); }).find("directory"), std::string::npos);
}

// "." and ".." cannot be renamed: refused before any measuring, not after.
TEST(OutputSetKind, ADirectoryThatCannotBeSwappedIsRefusedFirst) {
  const test::TempDir tmp;
  const fs::path was = fs::current_path();
  fs::current_path(tmp.path());
  EXPECT_NE(usage_message([] { OutputSet out("."); }).find("as a whole"), std::string::npos);
  EXPECT_NE(usage_message([] { OutputSet out("sub/.."); }).find("as a whole"), std::string::npos);
  fs::current_path(was);
  EXPECT_TRUE(fs::is_empty(tmp.path()));
}

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
  return st.st_mode & 07777;
}

// Restores the umask when the test ends.
class Umask {
 public:
  explicit Umask(mode_t mask) : before_(::umask(mask)) {}
  ~Umask() { ::umask(before_); }

 private:
  mode_t before_;
};

// Every fresh set was 0700 (mkdtemp's), whatever the umask: a colleague
// could not open the report.
TEST(OutputSetModes, AFreshSetHasWhatMkdirAndWriteGiveUnderTheUmask) {
  const test::TempDir tmp;
  {
    const Umask mask(022);
    write_set(tmp.path() / "D", R"({"tool": "cumap", "kind": "map"})");
    write_set(tmp.path() / "a" / "b" / "E", R"({"tool": "cumap", "kind": "map"})");
  }
  EXPECT_EQ(mode_of(tmp.path() / "D"), 0755u);
  EXPECT_EQ(mode_of(tmp.path() / "D" / "meta.json"), 0644u);
  EXPECT_EQ(mode_of(tmp.path() / "D" / "pairs.csv"), 0644u);
  EXPECT_EQ(mode_of(tmp.path() / "a"), 0755u);
  EXPECT_EQ(mode_of(tmp.path() / "a" / "b" / "E"), 0755u);
  {
    const Umask mask(077);
    write_set(tmp.path() / "P", R"({"tool": "cumap", "kind": "map"})");
  }
  EXPECT_EQ(mode_of(tmp.path() / "P"), 0700u);
  EXPECT_EQ(mode_of(tmp.path() / "P" / "meta.json"), 0600u);
}

TEST(OutputSetModes, ARerunKeepsTheSetsModeAndOwner) {
  const test::TempDir tmp;
  const fs::path dir = tmp.path() / "D";
  const Umask mask(022);
  write_set(dir, R"({"tool": "cumap", "kind": "map"})");
  ASSERT_EQ(::chmod(dir.c_str(), 0750), 0);
  const bool root = ::geteuid() == 0;
  if (root) ASSERT_EQ(::chown(dir.c_str(), 65534, 65534), 0);  // a user's set, re-run by root
  write_set(dir, R"({"tool": "cumap", "kind": "map", "run": 2})");
  EXPECT_EQ(mode_of(dir), 0750u);
  if (root) {
    struct stat st {};
    ASSERT_EQ(::stat(dir.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 65534u);
    ASSERT_EQ(::stat((dir / "pairs.csv").c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 65534u) << "the user must be able to rewrite the files of their set";
  }
  EXPECT_NE(read_all(dir / "meta.json").find("\"run\": 2"), std::string::npos);
}

std::vector<std::string> beside(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    if (e.path() != dir) out.push_back(e.path().filename());
  std::sort(out.begin(), out.end());
  return out;
}

// A run killed by SIGKILL left its staging directory (tens of MB for a GPU
// map) beside --out forever; the next run on the same --out removes it, and
// only what is exactly a staging directory of that set.
TEST(OutputSetLeftovers, TheNextRunRemovesTheStagingOfRunsThatDied) {
  const test::TempDir tmp;
  const fs::path dir = tmp.path() / "D";
  for (const char* dead : {".D.cumap-staging-Ab3xY9", ".D.cumap-staging-Qw12er-old"}) {
    fs::create_directories(tmp.path() / dead / "sub");
    std::ofstream(tmp.path() / dead / "pairs.csv") << "stale\n";
  }
  // Not a staging directory of D: another set's, a file, a link, another name.
  fs::create_directory(tmp.path() / ".D.cumap-staging-x.cumap-staging-Ab3xY9");
  fs::create_directory(tmp.path() / ".D.cumap-staging-toolong1");
  std::ofstream(tmp.path() / ".D.cumap-staging-File01") << "a file\n";
  fs::create_directory(tmp.path() / "elsewhere");
  std::ofstream(tmp.path() / "elsewhere" / "keep") << "keep\n";
  fs::create_directory_symlink("elsewhere", tmp.path() / ".D.cumap-staging-Link01");
  write_set(dir, R"({"tool": "cumap", "kind": "map"})");
  EXPECT_EQ(beside(dir), (std::vector<std::string>{".D.cumap-staging-File01", ".D.cumap-staging-Link01",
                                                   ".D.cumap-staging-toolong1",
                                                   ".D.cumap-staging-x.cumap-staging-Ab3xY9", "elsewhere"}));
  EXPECT_EQ(read_all(tmp.path() / "elsewhere" / "keep"), "keep\n");
}

// In a sticky directory such as /tmp, a lock a run of another user left
// blocked that --out for everyone. One that can be read is taken over (flock
// needs no write permission); one that cannot is reported with what to do.
TEST(OutputSetLeftovers, AStaleLockOfAnotherUserInAStickyDirectory) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to leave a lock as another user and run as a third";
  const test::TempDir tmp;
  const fs::path sticky = tmp.path() / "shared";
  fs::create_directory(sticky);
  ASSERT_EQ(::chmod(sticky.c_str(), 01777), 0);
  ASSERT_EQ(::chmod(tmp.path().c_str(), 0755), 0);
  const fs::path readable = sticky / ".R.cumap-lock", unreadable = sticky / ".U.cumap-lock";
  std::ofstream(readable) << "";
  std::ofstream(unreadable) << "";
  ASSERT_EQ(::chown(readable.c_str(), 65533, 65533), 0);
  ASSERT_EQ(::chown(unreadable.c_str(), 65533, 65533), 0);
  ASSERT_EQ(::chmod(readable.c_str(), 0644), 0);
  ASSERT_EQ(::chmod(unreadable.c_str(), 0600), 0);
  // A third user (nobody), in a child process.
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(10);
    try {
      write_set(sticky / "R", R"({"tool": "cumap", "kind": "map"})");
    } catch (...) {
      ::_exit(11);
    }
    const std::string message = usage_message([&] { OutputSet out(sticky / "U", OutputKind::Map); });
    if (message.find("rm ") == std::string::npos || message.find("uid 65533") == std::string::npos) ::_exit(12);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10: could not become nobody; 11: the readable stale lock blocked the run; "
                                       "12: the unreadable one was not reported with what to do";
  EXPECT_TRUE(fs::exists(sticky / "R" / "meta.json"));
}

}  // namespace
}  // namespace cumap
