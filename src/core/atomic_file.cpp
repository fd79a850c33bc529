// Output files that appear whole or not at all, and the output-directory check.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "cumap/outputs.hpp"

namespace fs = std::filesystem;

namespace cumap {
namespace {

std::string errno_text(int err) { return std::generic_category().message(err); }

// Writes all of `content` to a new file; returns 0 or the errno of the first failure.
int write_whole_file(const fs::path& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return errno;
  int err = 0;
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0 && err == 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno != EINTR) err = errno;
    } else {
      p += n;
      left -= static_cast<std::size_t>(n);
    }
  }
  // fsync before the rename, so that a crash cannot leave a renamed but empty file.
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  return err;
}

}  // namespace

void write_file_atomic(const fs::path& path, std::string_view content) {
  // Same directory as the target: rename() is only atomic within one file system.
  fs::path tmp = path;
  tmp += fmt::format(".tmp-{}", ::getpid());

  int err = write_whole_file(tmp, content);
  if (err == 0 && ::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    throw RuntimeFailure(fmt::format("cannot write {}: {}", path.string(), errno_text(err)));
  }
}

void ensure_writable_dir(const fs::path& dir) {
  const auto fail = [&](const std::string& reason) {
    throw UsageError(fmt::format("cannot write to output directory {}: {}", dir.string(), reason));
  };
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) fail("it is not a directory");

  // The outermost directory that create_directories will make, if any: the
  // one to remove again if the directory turns out to be unusable.
  // Only "not found" counts: a path we merely cannot stat may well exist.
  fs::path created_top;
  for (fs::path p = dir; !p.empty() && fs::status(p, ec).type() == fs::file_type::not_found;
       p = p.parent_path()) {
    created_top = p;
    if (p == p.parent_path()) break;
  }
  // Removes the directories this call made, innermost first. fs::remove only
  // deletes empty directories, so nothing anyone else put there is lost.
  const auto undo = [&] {
    if (created_top.empty()) return;
    std::error_code ignored;
    for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
      fs::remove(p, ignored);
      if (p == created_top || p == p.parent_path()) break;
    }
  };

  fs::create_directories(dir, ec);
  if (ec) {
    undo();
    fail(ec.message());
  }

  // Permission bits do not tell the whole story (root, read-only mounts, ACLs):
  // only creating a file proves that the run's outputs can be written.
  const fs::path probe = dir / fmt::format(".cumap-write-probe-{}", ::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    undo();
    fail(errno_text(err));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace cumap
