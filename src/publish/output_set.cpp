#include "publish/output_set.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "publish/atomic_file.hpp"
#include "report/read/checked_file.hpp"
#include "report/read/meta_json.hpp"

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

// The name of user `uid`, or its number.
std::string user_name(uid_t uid) {
  std::string buffer(16384, '\0');
  struct passwd entry {}, *found = nullptr;
  if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr)
    return fmt::format("{} (uid {})", found->pw_name, uid);
  return fmt::format("uid {}", uid);
}

// The lock file beside the set, opened: the one there, which a run that
// died leaves behind (perhaps another user's: opening it for writing, or
// with O_CREAT in a sticky directory such as /tmp, would be refused, and
// flock needs only a descriptor), else a new one. `created` says which.
int open_lock(const fs::path& path, const fs::path& dir, bool& created) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    // O_NONBLOCK: a named pipe in the lock's place does not block the open.
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      struct stat st {};
      if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        unusable(dir, fmt::format("{} is in the place of its lock and is not a regular file; remove it",
                                  shown(path)));
      }
      created = false;
      return fd;
    }
    if (errno == ENOENT) {
      fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (fd >= 0) {
        created = true;
        return fd;
      }
      if (errno == EEXIST) continue;  // another run made it meanwhile: open that one
    }
    const int err = errno;
    struct stat st {};
    if (err == EACCES && ::lstat(path.c_str(), &st) == 0 && st.st_uid != ::geteuid())
      unusable(dir, fmt::format("its lock {} was left by {}, and this user may not read it; if no cumap run of "
                                "theirs is writing to {}, they (or root) can remove the lock: rm {}",
                                shown(path), user_name(st.st_uid), shown(dir), shown(path)));
    if (err == ELOOP) unusable(dir, fmt::format("{}, in the place of its lock, is a symbolic link; remove it", shown(path)));
    unusable(dir, fmt::format("lock {}: {}", shown(path), errno_text(err)));
  }
  unusable(dir, fmt::format("could not open the lock {}", shown(path)));
}

// Holds an exclusive lock on `path` (created if missing), or fails with
// EWOULDBLOCK when another process holds it. Retries when the file it
// locked was removed by the previous holder meanwhile (it unlinks the lock
// as it leaves): a lock on an unlinked file would guard nothing.
int take_lock(const fs::path& path, const fs::path& dir, bool& created) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    const int fd = open_lock(path, dir, created);
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

// Staging directories are ".<name>.cumap-staging-" and six letters or
// digits; publish() may add "-old" while it moves the previous set aside.
constexpr std::string_view kStagingMark = ".cumap-staging-";
constexpr std::size_t kStagingSuffix = 6;

bool is_staging_of(const std::string& entry, const std::string& name) {
  const std::string prefix = "." + name + std::string(kStagingMark);
  if (!entry.starts_with(prefix)) return false;
  std::string_view rest = std::string_view(entry).substr(prefix.size());
  if (rest.ends_with("-old")) rest.remove_suffix(4);
  return rest.size() == kStagingSuffix &&
         std::all_of(rest.begin(), rest.end(), [](unsigned char c) { return std::isalnum(c) != 0; });
}

// What runs that died (SIGKILL, a crash, a power cut) left beside the set:
// their staging directories, tens of MB each for a GPU map. Called with the
// lock held: a live run holds it for as long as its staging directory
// exists, so any there now is a dead run's. Only directories by exactly
// that name are removed (a link by that name is not followed), and what
// cannot be removed (another user's in a sticky directory) stays.
void remove_dead_staging(const fs::path& parent, const std::string& name) {
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& entry = it->path();
    if (!is_staging_of(entry.filename().string(), name)) continue;
    std::error_code type_ec;
    if (!fs::is_directory(fs::symlink_status(entry, type_ec))) continue;
    std::error_code remove_ec;
    fs::remove_all(entry, remove_ec);
  }
}

// Why the existing directory `dir` cannot be swapped for a staged set by a
// rename in `parent`; "" when it can. Checked before any measuring, since
// the swap is the run's last step.
std::string why_not_swappable(const fs::path& dir, const fs::path& parent) {
  struct stat own {}, above {};
  if (::stat(dir.c_str(), &own) != 0 || ::stat(parent.c_str(), &above) != 0) return "";
  if (own.st_dev != above.st_dev || own.st_ino == above.st_ino)
    return "it is a mount point, which cannot be replaced by a new set; name a directory inside it";
  const uid_t me = ::geteuid();
  if ((above.st_mode & S_ISVTX) != 0 && me != 0 && own.st_uid != me && above.st_uid != me)
    return fmt::format("it belongs to {}, and {} lets only a file's owner rename it (the sticky bit, as on "
                       "/tmp); name another --out",
                       user_name(own.st_uid), shown(parent));
  return "";
}

// "a barrier set", "a map set", for messages.
std::string set_words(OutputKind kind) { return fmt::format("a {} set", to_string(kind)); }

}  // namespace

bool is_cumap_output_set(const fs::path& dir) {
  try {
    return is_cumap_meta(read_checked_json(dir / "meta.json", kMetaJsonRead));
  } catch (const UsageError&) {
    return false;
  }
}

void OutputSet::check_existing(std::optional<OutputKind> kind, bool replace) const {
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(dir_, ec)) && !fs::exists(dir_, ec))
    unusable(dir_, "it is a symbolic link to something that does not exist");
  const fs::file_status status = fs::status(dir_, ec);
  if (!fs::exists(status)) return;
  if (!fs::is_directory(status)) unusable(dir_, "it exists and is not a directory");
  if (!is_empty_directory(dir_)) {
    constexpr std::string_view kOnlyOurs = "cumap replaces only its own sets: name a new or empty directory";
    const fs::path meta_file = dir_ / "meta.json";
    if (!fs::exists(fs::symlink_status(meta_file, ec)))
      unusable(dir_, fmt::format("it holds files that are not a cumap output set (no cumap meta.json); {}", kOnlyOurs));
    nlohmann::json meta;
    try {
      meta = read_checked_json(meta_file, kMetaJsonRead);
    } catch (const FileReadError& e) {
      unusable(dir_, fmt::format("its meta.json cannot be read ({}); {}", e.reason(), kOnlyOurs));
    }
    if (!is_cumap_meta(meta))
      unusable(dir_, fmt::format("it holds files that are not a cumap output set (its meta.json is not cumap's); {}",
                                 kOnlyOurs));
    const std::optional<OutputKind> there = output_kind_of(meta);
    if (kind && there != kind && !replace)
      unusable(dir_, fmt::format("it holds {}, which a {} run would replace: name another --out, or add --replace "
                                 "to replace it",
                                 there ? set_words(*there) + " (its meta.json says so)"
                                       : std::string("a cumap set whose meta.json does not say which command "
                                                     "wrote it"),
                                 to_string(*kind)));
  }
  if (const std::string why = why_not_swappable(dir_, parent_.path()); !why.empty()) unusable(dir_, why);
}

OutputSet::OutputSet(fs::path dir, std::optional<OutputKind> kind, bool replace)
    : dir_(set_directory(dir)), parent_(dir_.parent_path().empty() ? fs::path(".") : dir_.parent_path()) {
  if (dir.empty()) unusable(dir, "no directory named");
  // A set is swapped in by renaming its directory, which "." and ".." (or
  // "/") cannot be.
  const fs::path name_part = dir_.filename();
  if (name_part.empty() || name_part == "." || name_part == "..")
    unusable(dir, "cumap replaces its output directory as a whole, which it cannot do to this one; name a "
                  "directory by its name (e.g. --out out)");
  check_existing(kind, replace);
  for (const fs::path& created : parent_.created_directories())
    created_registrations_.push_back(std::make_unique<RegisteredTempFile>(created));
  const std::string name = name_part.string();
  lock_path_ = parent_.path() / ("." + name + ".cumap-lock");
  bool lock_created = false;
  lock_fd_ = take_lock(lock_path_, dir_, lock_created);
  if (lock_created) lock_registration_ = std::make_unique<RegisteredTempFile>(lock_path_);
  remove_dead_staging(parent_.path(), name);
  try {
    make_staging();
  } catch (...) {
    ::unlink(lock_path_.c_str());
    ::close(lock_fd_);
    throw;
  }
  staging_registrations_.push_back(std::make_unique<RegisteredTempFile>(staging_));
}

void OutputSet::make_staging() {
  // mkdir(0777) rather than mkdtemp (0700): the published directory gets the
  // umask's mode, as a plain mkdir would give it.
  static constexpr std::string_view kLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::mt19937 random(std::random_device{}());
  std::uniform_int_distribution<std::size_t> letter(0, kLetters.size() - 1);
  const std::string prefix = (parent_.path() / ("." + dir_.filename().string() + std::string(kStagingMark))).string();
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string candidate = prefix;
    for (std::size_t i = 0; i < kStagingSuffix; ++i) candidate += kLetters[letter(random)];
    if (::mkdir(candidate.c_str(), 0777) == 0) {
      staging_ = candidate;
      return;
    }
    if (errno != EEXIST) unusable(dir_, errno_text(errno));
  }
  unusable(dir_, "could not name a staging directory beside it");
}

OutputSet::~OutputSet() {
  if (!published_) remove_staging();
  // Unlinked while still held: a run waiting for it retries on the new file.
  ::unlink(lock_path_.c_str());
  ::close(lock_fd_);
}

void OutputSet::write(const fs::path& name, std::string_view content) {
  const std::unique_ptr<AtomicFile> file = open_file(name);
  file->append(std::span(&content, 1));
  finish_file(*file, name);
}

std::unique_ptr<AtomicFile> OutputSet::open_file(const fs::path& name) {
  const fs::path file = staging_ / name;
  // Registered before it exists, so that a second interrupt while it is
  // written (or after) removes it with the staging directory.
  {
    const std::lock_guard<std::mutex> lock(registrations_mutex_);
    staging_registrations_.push_back(std::make_unique<RegisteredTempFile>(file));
  }
  return std::make_unique<AtomicFile>(file);
}

void OutputSet::finish_file(AtomicFile& file, const fs::path& name) {
  file.commit();
  const std::lock_guard<std::mutex> lock(registrations_mutex_);
  written_.push_back({name.string(), std::chrono::steady_clock::now()});
}

std::vector<OutputSet::Written> OutputSet::written() const {
  const std::lock_guard<std::mutex> lock(registrations_mutex_);
  return written_;
}

void OutputSet::keep_mode_and_owner() noexcept {
  // The set it replaces keeps its directory's mode, and its owner where
  // this process may give it (a re-run or --resume by root of a user's set).
  struct stat previous {};
  if (::stat(dir_.c_str(), &previous) != 0 || !S_ISDIR(previous.st_mode)) return;
  if (previous.st_uid != ::geteuid() || previous.st_gid != ::getegid()) {
    for (const Written& file : written_)
      if (::lchown((staging_ / file.name).c_str(), previous.st_uid, previous.st_gid) != 0) break;
    ::chown(staging_.c_str(), previous.st_uid, previous.st_gid);
  }
  ::chmod(staging_.c_str(), previous.st_mode & 07777);
}

void OutputSet::publish() {
  std::error_code ec;
  if (fs::exists(dir_, ec)) {
    keep_mode_and_owner();
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
