// Output files that appear whole or not at all.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "publish/atomic_file.hpp"
#include "publish/temp_files.hpp"

namespace fs = std::filesystem;

namespace cumap {
namespace {

std::string errno_text(int err) { return std::generic_category().message(err); }

// Writes all of `content` to the open file; returns 0 or the errno of the first failure.
int write_all(int fd, std::string_view content) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno != EINTR) return errno;
    } else {
      p += n;
      left -= static_cast<std::size_t>(n);
    }
  }
  // fsync before the rename, so that a crash cannot leave a renamed but empty file.
  return ::fsync(fd) != 0 ? errno : 0;
}

// The temporary name for the `attempt`-th try: hidden, in the target's
// directory (rename() is only atomic within one file system), and short
// enough that a target name near the file system's limit still gets one.
fs::path temp_name(const fs::path& path, int attempt) {
  std::string stem = path.filename().string().substr(0, 160);
  return path.parent_path() / fmt::format(".{}.cumap-tmp-{}-{}", stem, ::getpid(), attempt);
}

}  // namespace

std::string why_not_replaceable(const struct stat& existing) {
  const mode_t mode = existing.st_mode;
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "it is a directory";
  if (S_ISLNK(mode))
    return "it is a symbolic link, which writing the file would replace (cumap writes a new file and renames it "
           "into place); name the file itself";
  if (S_ISFIFO(mode)) return "it is a named pipe (FIFO); cumap writes regular files only";
  if (S_ISSOCK(mode)) return "it is a socket; cumap writes regular files only";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "it is a device; cumap writes regular files only";
  return "it is not a regular file; cumap writes regular files only";
}

void write_file_atomic(const fs::path& path, std::string_view content) {
  const auto fail = [&](int err) {
    throw RuntimeFailure(fmt::format("cannot write {}: {}", path.string(), errno_text(err)));
  };
  // Checked before and again just before the rename: what took the path's
  // place meanwhile is never replaced.
  const auto refuse_special = [&] {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return std::string();
    return why_not_replaceable(st);
  };
  if (const std::string why = refuse_special(); !why.empty())
    throw UsageError(fmt::format("cannot write {}: {}", printable_excerpt(path.string(), 120), why));
  // O_EXCL | O_NOFOLLOW: the temporary file is always one this call made;
  // a file or symbolic link that happens to have its name is never written
  // through or truncated, another name is tried instead.
  fs::path tmp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    tmp = temp_name(path, attempt);
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) fail(errno);
  }
  if (fd < 0) fail(EEXIST);
  // Registered while it exists, so that a second interrupt can remove it;
  // only after open() succeeded, since until then the name may be another's.
  const RegisteredTempFile registration(tmp);

  int err = write_all(fd, content);
  if (::close(fd) != 0 && err == 0) err = errno;
  if (const std::string why = err == 0 ? refuse_special() : std::string(); !why.empty()) {
    ::unlink(tmp.c_str());
    throw UsageError(fmt::format("cannot write {}: {}", printable_excerpt(path.string(), 120), why));
  }
  if (err == 0 && ::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    fail(err);
  }
}

}  // namespace cumap
