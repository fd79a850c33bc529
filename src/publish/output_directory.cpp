// The output directory: made like mkdir -p, undone exactly on failure.
#include "publish/output_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "publish/atomic_file.hpp"
#include "core/printable.hpp"

namespace fs = std::filesystem;

namespace cumap {
namespace {

std::string errno_text(int err) { return std::generic_category().message(err); }

// Paths in messages: long enough to recognise, never more than one line.
std::string shown(const fs::path& p) { return printable_excerpt(p.string(), 120); }

[[noreturn]] void unusable(const fs::path& dir, const std::string& reason) {
  throw UsageError(fmt::format("cannot write to output directory {}: {}", shown(dir), reason));
}

// "a/b/c" -> "a", "a/b", "a/b/c"; "/x/y" -> "/", "/x", "/x/y". Lexical only:
// nothing is resolved, so a symbolic link in the chain is seen as itself.
std::vector<fs::path> prefixes(const fs::path& dir) {
  std::vector<fs::path> out;
  fs::path p;
  for (const fs::path& part : dir) {
    if (part.empty()) continue;  // the "" a trailing slash adds
    p /= part;
    out.push_back(p);
  }
  return out;
}

// Why `p`, which mkdir() says exists, cannot be descended into; "" if it can.
std::string why_not_a_directory(const fs::path& p) {
  struct stat followed {};
  if (::stat(p.c_str(), &followed) == 0) return S_ISDIR(followed.st_mode) ? "" : shown(p) + " is not a directory";
  const int err = errno;
  struct stat itself {};
  if (::lstat(p.c_str(), &itself) == 0 && S_ISLNK(itself.st_mode))
    return shown(p) + " is a symbolic link to something that does not exist";
  return fmt::format("{}: {}", shown(p), errno_text(err));
}

}  // namespace

OutputDirectory::OutputDirectory(fs::path dir) : dir_(std::move(dir)) {
  if (dir_.empty()) unusable(dir_, "no directory named");
  try {
    // mkdir() each component in turn: it creates atomically and reports
    // EEXIST for anything already there (a directory, a file, a link,
    // dangling or not), so only what this call made is ever recorded.
    for (const fs::path& p : prefixes(dir_)) {
      if (::mkdir(p.c_str(), 0777) == 0) {
        created_dirs_.push_back(p);
        continue;
      }
      const int err = errno;
      if (err != EEXIST) {
        if (err == ENOTDIR) unusable(dir_, "a component of the path is not a directory");
        unusable(dir_, errno_text(err));
      }
      if (const std::string why = why_not_a_directory(p); !why.empty()) unusable(dir_, why);
    }
    // Permission bits do not tell the whole story (root, read-only mounts,
    // ACLs): only creating a file proves that the outputs can be written.
    const fs::path probe = dir_ / fmt::format(".cumap-write-probe-{}", ::getpid());
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) unusable(dir_, errno_text(errno));
    ::close(fd);
    ::unlink(probe.c_str());
  } catch (...) {
    discard();
    throw;
  }
}

OutputDirectory::~OutputDirectory() {
  if (!kept_) discard();
}

void OutputDirectory::write(const fs::path& name, std::string_view content) {
  const fs::path file = dir_ / name;
  struct stat existing {};
  const bool is_new = ::lstat(file.c_str(), &existing) != 0 && errno == ENOENT;
  write_file_atomic(file, content);
  if (is_new) note_new_file(file);
}

void OutputDirectory::note_new_file(const fs::path& file) {
  if (std::find(new_files_.begin(), new_files_.end(), file) == new_files_.end()) new_files_.push_back(file);
}

void OutputDirectory::discard() noexcept {
  for (const fs::path& file : new_files_) ::unlink(file.c_str());
  new_files_.clear();
  // Innermost first; rmdir() removes only empty directories, so whatever
  // someone else put into one meanwhile stays, and so does the directory.
  for (auto it = created_dirs_.rbegin(); it != created_dirs_.rend(); ++it) ::rmdir(it->c_str());
  created_dirs_.clear();
}

void check_output_file(const fs::path& file) {
  const auto bad = [&](const std::string& reason) {
    throw UsageError(fmt::format("cannot write {}: {}", shown(file), reason));
  };
  if (file.empty()) throw UsageError("cannot write '': no file named");
  if (file.filename().empty() || file.filename() == "." || file.filename() == "..")
    bad("it names a directory, not a file");
  struct stat st {};
  if (::lstat(file.c_str(), &st) == 0) {
    if (const std::string why = why_not_replaceable(st); !why.empty()) bad(why);
  } else if (errno != ENOENT) {
    bad(errno == ENOTDIR ? "a component of the path is not a directory" : errno_text(errno));
  }
  const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  if (::stat(dir.c_str(), &st) != 0)
    bad(errno == ENOENT ? fmt::format("the directory {} does not exist", shown(dir))
                        : fmt::format("directory {}: {}", shown(dir), errno_text(errno)));
  if (!S_ISDIR(st.st_mode)) bad(fmt::format("{} is not a directory", shown(dir)));
  // access() answers for the real user and knows read-only mounts (EROFS).
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    bad(fmt::format("directory {}: {}", shown(dir), errno_text(errno)));
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (name_max > 0 && file.filename().native().size() > static_cast<std::size_t>(name_max))
    bad("the file name is too long");
}

}  // namespace cumap
