#pragma once
#include <sys/stat.h>

#include <filesystem>
#include <memory>
#include <string>
#include <span>
#include <string_view>

#include "publish/temp_files.hpp"

namespace cumap {

// Writes to a temporary file beside `path`, then renames it over `path`, so
// that readers never see half a file. Throws RuntimeFailure on I/O errors,
// and UsageError, writing nothing, when something other than a regular file
// is at `path` (why_not_replaceable): a rename would replace it.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// write_file_atomic's steps spread over time, for a file written while its
// content is still being made, in pieces never joined in memory (pairs.csv,
// a placement at a time, hundreds of MB across GPUs): nothing
// is at `path` until commit(); the temporary file is removed unless
// committed. Errors as write_file_atomic's.
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void append(std::span<const std::string_view> pieces);
  void commit();  // synced to disk, then renamed over `path`

 private:
  std::string refusal() const;
  [[noreturn]] void fail(int err) const;

  std::filesystem::path path_;
  std::filesystem::path tmp_;
  int fd_ = -1;
  off_t written_ = 0;
  off_t handed_ = 0;  // bytes handed to the disk so far
  bool committed_ = false;
  std::unique_ptr<RegisteredTempFile> registration_;
};

// Why the file `existing` (lstat's answer for an output path) must not be
// replaced by an output file; "" for a regular file. A rename over a
// symbolic link replaces the link (its target untouched), over a named pipe,
// socket or device (/dev/null, run as root) the node itself. A regular file
// with other hard links is replaced: its other names keep the old content,
// as when any editor saves by renaming.
std::string why_not_replaceable(const struct stat& existing);

}  // namespace cumap
