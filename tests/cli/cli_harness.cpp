#include "cli_harness.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

namespace cumap::test {
namespace fs = std::filesystem;

std::vector<std::string> RunResult::err_lines() const {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

namespace {

// POSIX shell single quotes: only ' itself needs care.
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  q += '\'';
  return q;
}

}  // namespace

RunResult run_cumap(const std::vector<std::string>& args, const fs::path& cwd) {
  // The captures live outside `cwd` so that they never count as output.
  TempDir capture;
  const fs::path out = capture.path() / "stdout", err = capture.path() / "stderr";
  // Appending piece by piece: GCC 12 warns falsely (-Wrestrict) on " " + string.
  std::string cmd = "cd ";
  cmd += shell_quote(cwd.string());
  cmd += " && ";
  cmd += shell_quote(CUMAP_BINARY);
  for (const auto& a : args) {
    cmd += ' ';
    cmd += shell_quote(a);
  }
  cmd += " </dev/null >";
  cmd += shell_quote(out.string());
  cmd += " 2>";
  cmd += shell_quote(err.string());
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

std::map<std::string, long long> snapshot(const fs::path& dir) {
  std::map<std::string, long long> entries;
  if (!fs::exists(dir)) return entries;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string rel = fs::relative(e.path(), dir).string();
    entries[rel] = e.is_directory() ? -1 : static_cast<long long>(e.file_size());
  }
  return entries;
}

void expect_one_usage_line(const RunResult& r, const std::string& mentions) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const auto lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << "stderr:\n" << r.err;
  EXPECT_EQ(lines[0].rfind("cumap: error:", 0), 0u) << lines[0];
  std::string lower = lines[0];
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  EXPECT_NE(lower.find(mentions), std::string::npos) << lines[0];
  EXPECT_EQ(r.err.back(), '\n');
}

std::vector<std::string> quick_map(std::vector<std::string> extra, const std::string& iters) {
  std::vector<std::string> args{"--backend", "cpu", "--units", "0-1", "--iters", iters, "--samples", "2",
                                "--warmup", "2", "--home-lines", "64", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::set<std::string> file_names(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

std::vector<std::string> leftovers_beside(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    if (e.path().filename().string().find(".cumap-") != std::string::npos) out.push_back(e.path().filename());
  return out;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

bool has_png_signature(const fs::path& file) {
  constexpr std::array<unsigned char, 8> kSignature{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  const std::string head = read_text(file).substr(0, 8);
  return head.size() == 8 && std::equal(kSignature.begin(), kSignature.end(), head.begin(),
                                        [](unsigned char a, char b) { return a == static_cast<unsigned char>(b); });
}

int run_and_interrupt(std::vector<std::string> args, const std::filesystem::path& cwd,
                      std::chrono::milliseconds delay, std::chrono::milliseconds* after_signal) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0) _exit(127);
    std::vector<char*> argv{const_cast<char*>(CUMAP_BINARY)};
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(CUMAP_BINARY, argv.data());
    _exit(127);
  }
  // The delay counts from when the run has staged its --out (in `cwd`): its
  // Ctrl-C handler is installed right after. A signal before that ends the
  // process as SIGINT does any program, and on a loaded machine startup
  // (device, home discovery) can take longer than the delay itself.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  const auto staged = [&cwd] {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(cwd, ec))
      if (entry.path().filename().string().find(".cumap-staging-") != std::string::npos) return true;
    return false;
  };
  int status = 0;
  bool exited = false;
  while (!staged() && std::chrono::steady_clock::now() < give_up && !(exited = waitpid(pid, &status, WNOHANG) == pid))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  auto signalled = std::chrono::steady_clock::now();
  if (!exited) {
    std::this_thread::sleep_for(delay);
    kill(pid, SIGINT);
    signalled = std::chrono::steady_clock::now();
    waitpid(pid, &status, 0);
  }
  if (after_signal)
    *after_signal =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - signalled);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace cumap::test
