#include "publish/output_set.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "publish/atomic_file.hpp"

namespace fs = std::filesystem;

namespace cumap {
namespace {

std::string shown(const fs::path& p) { return printable_excerpt(p.string(), 120); }
std::string errno_text(int err) { return std::generic_category().message(err); }

[[noreturn]] void unusable(const fs::path& dir, const std::string& reason) {
  throw UsageError(fmt::format("cannot write to output directory {}: {}", shown(dir), reason));
}

// The set's own directory, with a symbolic link to a directory followed:
// the staged set must land where the link points, not replace the link.
fs::path set_directory(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_symlink(dir, ec) && fs::is_directory(dir, ec)) return fs::canonical(dir, ec);
  // "out/" names "out": the staging directory and the lock go beside it.
  fs::path clean = dir.lexically_normal();
  if (clean.has_filename()) return clean;
  return clean.parent_path();
}

bool is_empty_directory(const fs::path& dir) {
  std::error_code ec;
  return fs::is_empty(dir, ec) && !ec;
}

// Holds an exclusive lock on `path` (created if missing), or fails with
// EWOULDBLOCK when another process holds it. Retries when the file it
// locked was removed by the previous holder meanwhile (it unlinks the lock
// as it leaves): a lock on an unlinked file would guard nothing.
int take_lock(const fs::path& path, const fs::path& dir) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) unusable(dir, fmt::format("lock {}: {}", shown(path), errno_text(errno)));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK)
        throw UsageError(fmt::format("another cumap run is writing to {} (it holds {}); wait for it or choose "
                                     "another --out",
                                     shown(dir), shown(path)));
      unusable(dir, fmt::format("lock {}: {}", shown(path), errno_text(err)));
    }
    struct stat held {}, named {};
    if (::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
        held.st_dev == named.st_dev)
      return fd;
    ::close(fd);
  }
  unusable(dir, fmt::format("could not hold the lock {}", shown(path)));
}

}  // namespace

bool is_cumap_output_set(const fs::path& dir) {
  std::ifstream in(dir / "meta.json");
  if (!in) return false;
  const nlohmann::json meta = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  return meta.is_object() && meta.contains("tool") && meta["tool"] == "cumap";
}

OutputSet::OutputSet(fs::path dir)
    : dir_(set_directory(dir)), parent_(dir_.parent_path().empty() ? fs::path(".") : dir_.parent_path()) {
  if (dir.empty()) unusable(dir, "no directory named");
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(dir_, ec)) && !fs::exists(dir_, ec))
    unusable(dir_, "it is a symbolic link to something that does not exist");
  const fs::file_status status = fs::status(dir_, ec);
  if (fs::exists(status)) {
    if (!fs::is_directory(status)) unusable(dir_, "it exists and is not a directory");
    if (!is_empty_directory(dir_) && !is_cumap_output_set(dir_))
      unusable(dir_, "it holds files that are not a cumap output set (no cumap meta.json); cumap replaces only its "
                     "own sets: name a new or empty directory");
  }
  for (const fs::path& created : parent_.created_directories())
    created_registrations_.push_back(std::make_unique<RegisteredTempFile>(created));
  const std::string name = dir_.filename().string();
  lock_path_ = parent_.path() / ("." + name + ".cumap-lock");
  const bool lock_existed = fs::exists(lock_path_, ec);
  lock_fd_ = take_lock(lock_path_, dir_);
  if (!lock_existed) lock_registration_ = std::make_unique<RegisteredTempFile>(lock_path_);
  std::string pattern = (parent_.path() / ("." + name + ".cumap-staging-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    const int err = errno;
    ::unlink(lock_path_.c_str());
    ::close(lock_fd_);
    unusable(dir_, errno_text(err));
  }
  staging_ = pattern;
  staging_registrations_.push_back(std::make_unique<RegisteredTempFile>(staging_));
}

OutputSet::~OutputSet() {
  if (!published_) remove_staging();
  // Unlinked while still held: a run waiting for it retries on the new file.
  ::unlink(lock_path_.c_str());
  ::close(lock_fd_);
}

void OutputSet::write(const fs::path& name, std::string_view content) {
  const fs::path file = staging_ / name;
  // Registered before it exists, so that a second interrupt while it is
  // written (or after) removes it with the staging directory.
  {
    const std::lock_guard<std::mutex> lock(registrations_mutex_);
    staging_registrations_.push_back(std::make_unique<RegisteredTempFile>(file));
  }
  write_file_atomic(file, content);
  const std::lock_guard<std::mutex> lock(registrations_mutex_);
  written_.push_back({name.string(), std::chrono::steady_clock::now()});
}

std::vector<OutputSet::Written> OutputSet::written() const {
  const std::lock_guard<std::mutex> lock(registrations_mutex_);
  return written_;
}

void OutputSet::publish() {
  std::error_code ec;
  if (fs::exists(dir_, ec)) {
    // One step where the file system can: readers see the old set or the new.
    if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0) {
      if (errno != EINVAL && errno != ENOSYS)
        throw RuntimeFailure(fmt::format("cannot replace {}: {}", shown(dir_), errno_text(errno)));
      // Without the exchange: move the old set aside, then the new one in.
      const fs::path aside = staging_.string() + "-old";
      if (::rename(dir_.c_str(), aside.c_str()) != 0)
        throw RuntimeFailure(fmt::format("cannot replace {}: {}", shown(dir_), errno_text(errno)));
      if (::rename(staging_.c_str(), dir_.c_str()) != 0) {
        const int err = errno;
        ::rename(aside.c_str(), dir_.c_str());
        throw RuntimeFailure(fmt::format("cannot replace {}: {}", shown(dir_), errno_text(err)));
      }
      fs::rename(aside, staging_, ec);
    }
  } else if (::rename(staging_.c_str(), dir_.c_str()) != 0) {
    throw RuntimeFailure(fmt::format("cannot create {}: {}", shown(dir_), errno_text(errno)));
  }
  published_ = true;
  parent_.keep();
  // The staging path now holds the previous set, if there was one; nothing
  // of it may survive beside the new set.
  staging_registrations_.clear();
  created_registrations_.clear();
  fs::remove_all(staging_, ec);
}

void OutputSet::remove_staging() noexcept {
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

}  // namespace cumap
