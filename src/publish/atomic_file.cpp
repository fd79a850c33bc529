// Output files that appear whole or not at all.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <memory>
#include <string>
#include <span>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "publish/atomic_file.hpp"
#include "publish/temp_files.hpp"

namespace fs = std::filesystem;

namespace cumap {
namespace {

std::string errno_text(int err) { return std::generic_category().message(err); }

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

AtomicFile::AtomicFile(fs::path path) : path_(std::move(path)) {
  if (const std::string why = refusal(); !why.empty())
    throw UsageError(fmt::format("cannot write {}: {}", printable_excerpt(path_.string(), 120), why));
  // O_EXCL | O_NOFOLLOW: the temporary file is always one this object made;
  // a file or symbolic link that happens to have its name is never written
  // through or truncated, another name is tried instead.
  for (int attempt = 0; fd_ < 0 && attempt < 100; ++attempt) {
    tmp_ = temp_name(path_, attempt);
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ < 0 && errno != EEXIST) fail(errno);
  }
  if (fd_ < 0) fail(EEXIST);
  // Registered while it exists, so that a second interrupt can remove it;
  // only after open() succeeded, since until then the name may be another's.
  registration_ = std::make_unique<RegisteredTempFile>(tmp_);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !tmp_.empty()) ::unlink(tmp_.c_str());
}

// What took the path's place is never replaced: checked when the file is
// opened and again just before the rename.
std::string AtomicFile::refusal() const {
  struct stat st {};
  if (::lstat(path_.c_str(), &st) != 0) return std::string();
  return why_not_replaceable(st);
}

void AtomicFile::fail(int err) const {
  throw RuntimeFailure(fmt::format("cannot write {}: {}", path_.string(), errno_text(err)));
}

void AtomicFile::append(std::span<const std::string_view> pieces) {
  // A large file's pages are handed to the disk as they are written
  // (sync_file_range), so that commit's fsync waits only for the last of
  // them: pairs.csv of a map across two GPUs is ~400 MB, whose fsync alone
  // took 0.3 s on an H200 host.
  constexpr off_t kWritebackBytes = off_t{16} << 20;
  for (const std::string_view piece : pieces) {
    const char* p = piece.data();
    std::size_t left = piece.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0) {
        if (errno != EINTR) fail(errno);
      } else {
        p += n;
        left -= static_cast<std::size_t>(n);
        written_ += n;
      }
    }
    if (written_ - handed_ >= kWritebackBytes) {
      (void)::sync_file_range(fd_, handed_, written_ - handed_, SYNC_FILE_RANGE_WRITE);  // a hint: failure is harmless
      handed_ = written_;
    }
  }
}

void AtomicFile::commit() {
  // fsync before the rename, so that a crash cannot leave a renamed but empty file.
  int err = ::fsync(fd_) != 0 ? errno : 0;
  if (::close(fd_) != 0 && err == 0) err = errno;
  fd_ = -1;
  if (err != 0) fail(err);
  if (const std::string why = refusal(); !why.empty())
    throw UsageError(fmt::format("cannot write {}: {}", printable_excerpt(path_.string(), 120), why));
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) fail(errno);
  committed_ = true;
}

void write_file_atomic(const fs::path& path, std::string_view content) {
  AtomicFile file(path);
  file.append(std::span(&content, 1));
  file.commit();
}

}  // namespace cumap
