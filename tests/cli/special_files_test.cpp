// What the hostile campaign found (issue 40), end to end on the real binary:
// output paths that are not regular files are refused and left as they
// were; every file cumap reads goes through its checked reader, so that a
// named pipe, /dev/zero or JSON nested a hundred thousand deep ends in exit
// 2 within a second instead of a hang, an exhausted memory or a crash.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_harness.hpp"

namespace cumap::test {
namespace {

namespace fs = std::filesystem;

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// `cumap args...` in `cwd` with `env` ("CUMAP_FONT=x") before it, killed
// after 20 s (a hang reads as exit 137), and how long it took.
struct Timed {
  RunResult result;
  double seconds = 0;
};
Timed run_timed(const std::vector<std::string>& args, const fs::path& cwd, const std::string& env = "") {
  const TempDir capture;
  std::string cmd = "cd " + shell_quoted(cwd.string()) + " && " + env + " timeout -s KILL 20 " + shell_quoted(CUMAP_BINARY);
  for (const std::string& a : args) cmd += " " + shell_quoted(a);
  cmd += " </dev/null >" + shell_quoted((capture.path() / "out").string()) + " 2>" + shell_quoted((capture.path() / "err").string());
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(cmd.c_str());
  Timed t;
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.result.exit_code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  t.result.out = read_text(capture.path() / "out");
  t.result.err = read_text(capture.path() / "err");
  return t;
}

// Exit 2 with one line naming `mentions`, within a second.
void expect_quick_refusal(const Timed& t, const std::string& mentions) {
  expect_one_usage_line(t.result, mentions);
  EXPECT_LT(t.seconds, 1.0) << t.result.err;
}

const char* const kCsv = "unit,0,1\n0,,5\n1,5,\n";

// Each entry of `dir` by name: its type, and a regular file's size (a
// named pipe has none to ask for).
std::map<std::string, std::string> entries_of(const fs::path& dir) {
  std::map<std::string, std::string> entries;
  for (const auto& e : fs::directory_iterator(dir)) {
    const fs::file_status st = fs::symlink_status(e.path());
    entries[e.path().filename().string()] =
        fs::is_regular_file(st) ? std::to_string(fs::file_size(e.path()))
                                : std::to_string(static_cast<int>(st.type()));
  }
  return entries;
}

// --json and render -o renamed a new file over whatever was at the path.
TEST(SpecialFiles, OutputPathsThatAreNotRegularFilesAreRefusedAndKept) {
  TempDir cwd;
  const fs::path d = cwd.path();
  ASSERT_EQ(::mkfifo((d / "f.json").c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo((d / "f.png").c_str(), 0600), 0);
  write_text(d / "target", "target\n");
  fs::create_symlink("target", d / "link.json");
  fs::create_symlink("target", d / "link.png");
  write_text(d / "m.csv", kCsv);
  const auto before = entries_of(d);
  expect_quick_refusal(run_timed({"topology", "--backend", "cpu", "--json", "f.json"}, d), "named pipe");
  expect_quick_refusal(run_timed({"topology", "--backend", "cpu", "--json", "link.json"}, d), "symbolic link");
  expect_quick_refusal(run_timed({"render", "m.csv", "-o", "f.png"}, d), "named pipe");
  expect_quick_refusal(run_timed({"render", "m.csv", "-o", "link.png"}, d), "symbolic link");
  expect_quick_refusal(run_timed({"check-coherence", "--backend", "cpu", "--json", "f.json"}, d), "named pipe");
  expect_quick_refusal(run_timed({"topology", "--backend", "cpu", "--json", "/dev/stdout"}, d), "symbolic link");
  // A missing directory was exit 1 after the probing.
  expect_quick_refusal(run_timed({"topology", "--backend", "cpu", "--json", "missing/t.json"}, d), "does not exist");
  EXPECT_EQ(entries_of(d), before);
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(d / "f.json")));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(d / "link.png")));
  EXPECT_EQ(read_text(d / "target"), "target\n");
}

// As root, `cumap topology --json /dev/null` turned the machine's /dev/null
// into a 635-byte file. Tried in a private mount namespace, on a /dev/null
// of its own, where the system allows one.
TEST(SpecialFiles, DevNullIsLeftADeviceInAPrivateMountNamespace) {
  if (std::system("unshare -m true >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "unshare -m is not available to this user (it needs CAP_SYS_ADMIN)";
  TempDir cwd;
  write_text(cwd.path() / "m.csv", kCsv);
  fs::create_directory(cwd.path() / "mounted");
  const std::string bin = shell_quoted(CUMAP_BINARY);
  std::string body =
      "set -u; mount -t tmpfs tmpfs /dev && mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/x.png c 1 3 || exit 99; "
      "mount -t tmpfs tmpfs mounted || exit 98; codes=; "
      "for c in 'topology --backend cpu --json /dev/null' 'check-coherence --backend cpu --json /dev/null' "
      "'render m.csv -o /dev/x.png' '--backend cpu --units 0-1 --home-lines 64 --quiet --out mounted'; do " +
      bin + " $c </dev/null >/dev/null 2>>err.txt; codes=\"$codes $?\"; done; "
            "echo $codes > codes.txt; stat -c %F /dev/null /dev/x.png > kinds.txt";
  const int status = std::system(("cd " + shell_quoted(cwd.path().string()) + " && unshare -m sh -c " + shell_quoted(body)).c_str());
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 99 || WEXITSTATUS(status) == 98)
    GTEST_SKIP() << "no tmpfs or mknod in the namespace";
  EXPECT_EQ(read_text(cwd.path() / "codes.txt"), "2 2 2 2\n") << read_text(cwd.path() / "err.txt");
  EXPECT_EQ(read_text(cwd.path() / "kinds.txt"), "character special file\ncharacter special file\n");
  const std::string err = read_text(cwd.path() / "err.txt");
  EXPECT_NE(err.find("mount point"), std::string::npos) << err;
}

// The readers: summary, render --order, --resume, --out DIR's meta.json
// and CUMAP_FONT blocked forever on a named pipe and read /dev/zero until
// memory ran out.
TEST(SpecialFiles, EveryReaderRefusesAPipeAndDevZeroAtOnce) {
  TempDir cwd;
  const fs::path d = cwd.path();
  ASSERT_EQ(::mkfifo((d / "p.json").c_str(), 0600), 0);
  write_text(d / "m.csv", kCsv);
  ASSERT_EQ(run_cumap(quick_map({"--out", "ok"}), d).exit_code, 0);
  // Sets whose files are a pipe, or /dev/zero behind a link.
  for (const char* file : {"meta.json", "homes.json", "pairs.csv"}) {
    const fs::path set = d / (std::string("pipe-") + file);
    fs::copy(d / "ok", set);
    fs::remove(set / file);
    ASSERT_EQ(::mkfifo((set / file).c_str(), 0600), 0);
    const fs::path zero = d / (std::string("zero-") + file);
    fs::copy(d / "ok", zero);
    fs::remove(zero / file);
    fs::create_symlink("/dev/zero", zero / file);
  }
  expect_quick_refusal(run_timed({"summary", "p.json"}, d), "named pipe");
  expect_quick_refusal(run_timed({"summary", "/dev/zero"}, d), "character device");
  expect_quick_refusal(run_timed({"summary", "pipe-meta.json"}, d), "named pipe");
  expect_quick_refusal(run_timed({"summary", "/proc/self/mem"}, d), "/proc");
  expect_quick_refusal(run_timed({"render", "m.csv", "-o", "x.png", "--order", "p.json"}, d), "named pipe");
  expect_quick_refusal(run_timed({"render", "m.csv", "-o", "x.png", "--order", "/dev/zero"}, d), "character device");
  expect_quick_refusal(run_timed({"render", "/dev/zero", "-o", "x.png"}, d), "character device");
  for (const char* file : {"meta.json", "homes.json", "pairs.csv"}) {
    SCOPED_TRACE(file);
    expect_quick_refusal(run_timed({"--resume", std::string("pipe-") + file}, d), "named pipe");
    expect_quick_refusal(run_timed({"--resume", std::string("zero-") + file}, d), "character device");
  }
  expect_quick_refusal(run_timed(quick_map({"--out", "pipe-meta.json"}), d), "named pipe");
  expect_quick_refusal(run_timed(quick_map({"--out", "zero-meta.json"}), d), "character device");
  expect_quick_refusal(run_timed(quick_map({"--out", "F"}), d, "CUMAP_FONT=p.json"), "named pipe");
  expect_quick_refusal(run_timed(quick_map({"--out", "F"}), d, "CUMAP_FONT=/dev/zero"), "character device");
  EXPECT_FALSE(fs::exists(d / "F"));
  EXPECT_FALSE(fs::exists(d / "x.png"));
}

// Nested 100 000 deep (200 KB), JSON crashed cumap (SIGSEGV) wherever it
// was read: the --order file, --resume's meta.json, `cumap summary`.
TEST(SpecialFiles, DeepJsonIsRefusedWithinASecond) {
  TempDir cwd;
  const fs::path d = cwd.path();
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  write_text(d / "deep.json",
             "{\"groups\":[{\"name\":\"g\",\"units\":[" + deep + "]}]}");
  write_text(d / "m.csv", kCsv);
  expect_quick_refusal(run_timed({"render", "m.csv", "-o", "x.png", "--order", "deep.json"}, d), "nests deeper");
  expect_quick_refusal(run_timed({"summary", "deep.json"}, d), "nests deeper");
  ASSERT_EQ(run_cumap(quick_map({"--out", "R"}), d).exit_code, 0);
  write_text(d / "R" / "meta.json", "{\"tool\":\"cumap\",\"options\":" + deep + "}");
  expect_quick_refusal(run_timed({"--resume", "R"}, d), "nests deeper");
  expect_quick_refusal(run_timed(quick_map({"--out", "R"}), d), "nests deeper");
  EXPECT_FALSE(fs::exists(d / "x.png"));
}

// meta.json that is a directory, or whose "tool" is not a string, ended as
// "internal error" (exit 1).
TEST(SpecialFiles, AMalformedMetaJsonIsBadInput) {
  TempDir cwd;
  const fs::path d = cwd.path();
  fs::create_directories(d / "D" / "meta.json");
  write_text(d / "D" / "pairs.csv", "x\n");
  expect_quick_refusal(run_timed({"summary", "D"}, d), "meta.json");
  expect_quick_refusal(run_timed(quick_map({"--out", "D"}), d), "directory");
  fs::remove_all(d / "D" / "meta.json");
  write_text(d / "D" / "meta.json", R"({"tool": 7})");
  expect_quick_refusal(run_timed(quick_map({"--out", "D"}), d), "not a cumap output set");
  expect_quick_refusal(run_timed({"summary", "D"}, d), "not the meta.json of a cumap map");
}

}  // namespace
}  // namespace cumap::test
