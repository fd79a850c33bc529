// The one checked reader (checked_file.hpp).
#include "report/read/checked_file.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "core/printable.hpp"

namespace fs = std::filesystem;

namespace cumap {
namespace {

std::string errno_text(int err) { return std::generic_category().message(err); }

// Why a file of this type is not read; "" for a regular file.
std::string why_not_regular(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "it is a directory, not a file";
  if (S_ISFIFO(mode)) return "it is a named pipe (FIFO), not a regular file";
  if (S_ISSOCK(mode)) return "it is a socket, not a regular file";
  if (S_ISCHR(mode)) return "it is a character device, not a regular file";
  if (S_ISBLK(mode)) return "it is a block device, not a regular file";
  return "it is not a regular file";
}

// The kernel's own files: their size is 0 or made up, and reading one may
// never end (/proc/kmsg) or fail on the first byte (/proc/self/mem).
std::string why_kernel_file(int fd) {
  struct statfs fs_info {};
  if (::fstatfs(fd, &fs_info) != 0) return "";
  switch (fs_info.f_type) {
    case PROC_SUPER_MAGIC: return "it is a file of /proc, not a regular file";
    case SYSFS_MAGIC: return "it is a file of /sys, not a regular file";
    case DEBUGFS_MAGIC: return "it is a file of debugfs, not a regular file";
    default: return "";
  }
}

std::string too_large(const ReadKind& kind) {
  return fmt::format("it is larger than {} MiB, more than cumap reads of a {}", kind.max_bytes / kMiB, kind.name);
}

// An open, checked regular file; closed when it goes.
class CheckedFile {
 public:
  CheckedFile(const fs::path& path, const ReadKind& kind) : path_(path), kind_(kind) {
    // stat() first, so that a device is never opened (opening one may do
    // something); the descriptor is checked again after the open.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) fail(errno == ENOENT ? "no such file" : errno_text(errno));
    if (const std::string why = why_not_regular(st.st_mode); !why.empty()) fail(why);
    // O_NONBLOCK: a named pipe put in its place meanwhile does not block the open.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) fail(errno_text(errno));
    if (::fstat(fd_, &st) != 0) fail(errno_text(errno));
    if (const std::string why = why_not_regular(st.st_mode); !why.empty()) fail(why);
    if (const std::string why = why_kernel_file(fd_); !why.empty()) fail(why);
    if (st.st_size < 0 || static_cast<std::uint64_t>(st.st_size) > kind.max_bytes) fail(too_large(kind));
    size_ = static_cast<std::uint64_t>(st.st_size);
  }
  ~CheckedFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  CheckedFile(const CheckedFile&) = delete;
  CheckedFile& operator=(const CheckedFile&) = delete;

  std::uint64_t size() const { return size_; }

  // Each chunk to `take`; never more than the kind's limit in all, whatever
  // the size said (a file may grow while it is read).
  void read(const std::function<void(std::string_view)>& take) {
    std::string chunk(std::size_t{1} << 20, '\0');
    std::uint64_t total = 0;
    for (;;) {
      const ssize_t n = ::read(fd_, chunk.data(), chunk.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        fail(errno_text(errno));
      }
      if (n == 0) return;
      total += static_cast<std::uint64_t>(n);
      if (total > kind_.max_bytes) fail(too_large(kind_));
      take(std::string_view(chunk.data(), static_cast<std::size_t>(n)));
    }
  }

  [[noreturn]] void fail(const std::string& why) const { throw FileReadError(path_, why); }

 private:
  fs::path path_;
  ReadKind kind_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace

FileReadError::FileReadError(const fs::path& path, std::string reason)
    : UsageError(fmt::format("{}: {}", printable_excerpt(path.string(), 160), reason)), reason_(std::move(reason)) {}

std::string read_checked_file(const fs::path& path, const ReadKind& kind) {
  CheckedFile file(path, kind);
  std::string text;
  text.reserve(static_cast<std::size_t>(file.size()));
  file.read([&](std::string_view chunk) { text.append(chunk); });
  return text;
}

void read_checked_file_in_chunks(const fs::path& path, const ReadKind& kind,
                                 const std::function<void(std::string_view)>& take) {
  CheckedFile file(path, kind);
  file.read(take);
}

nlohmann::json parse_checked_json(std::string_view text) {
  // nlohmann parses iteratively, but copying, comparing and dumping a value
  // recurse: its parser callback sees each value's depth as it is built, and
  // stops the parse at the first that is too deep.
  struct TooDeep {};
  const auto bounded = [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxJsonDepth) throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(text, bounded);
  } catch (const TooDeep&) {
    throw UsageError(fmt::format("it nests deeper than {} levels, far more than any JSON cumap writes or reads",
                                 kMaxJsonDepth));
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(fmt::format("it is not valid JSON (at byte {})", e.byte));
  } catch (const nlohmann::json::out_of_range&) {
    // What the parser cannot hold: a number past a double's range (1e400).
    throw UsageError("it holds a number too large for any value cumap writes");
  }
}

nlohmann::json read_checked_json(const fs::path& path, const ReadKind& kind) {
  const std::string text = read_checked_file(path, kind);
  try {
    return parse_checked_json(text);
  } catch (const UsageError& e) {
    throw FileReadError(path, e.what());
  }
}

}  // namespace cumap
