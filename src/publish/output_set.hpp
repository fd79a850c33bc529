#pragma once
// The files of one run as one set: written into a staging directory beside
// the output directory and swapped in whole, so that a reader (or a second
// run) never sees new matrices beside an old meta.json, and files of an
// earlier set never survive beside a new one.
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/output_kind.hpp"
#include "publish/atomic_file.hpp"
#include "publish/output_directory.hpp"
#include "publish/temp_files.hpp"

namespace cumap {

//   OutputSet out(options.out_dir, OutputKind::Map, options.replace);  // UsageError (exit 2) before any measuring
//   out.write("matrix.csv", text);    // into the staging directory
//   out.publish();                    // the whole set replaces the old one
//
// Without publish() (a failed run) the destructor removes the staging
// directory and whatever directories it created, and the previous set stays
// exactly as it was. While the object lives it holds a lock beside the
// directory: a second run into the same directory is refused. On a second
// interrupt the signal handler removes the staged files, the staging
// directory and the lock (they are registered, see temp_files.hpp).
//
// The published set has what a plain mkdir and writes would give it: a new
// directory the umask's mode (0755 under umask 022), its files 0666 less
// the umask; a set it replaces keeps its directory's mode and owner, and
// its files get that owner where this process may give it (root).
class OutputSet {
 public:
  // Creates the missing parent directories and the staging directory, and
  // takes the lock; removes what runs that died left beside the directory
  // (their staging directories: whoever holds the lock is the only run
  // writing this set). UsageError naming the directory when it cannot be
  // written; when it exists but holds files that are not a cumap output set
  // (cumap replaces its own sets only), or a set of another kind than
  // `kind` unless `replace` (any cumap set where `kind` is none); when it
  // cannot be swapped for the new set (".", a mount point, another user's
  // in a sticky directory); or when another run holds the lock.
  explicit OutputSet(std::filesystem::path dir, std::optional<OutputKind> kind = std::nullopt, bool replace = false);
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  const std::filesystem::path& path() const { return dir_; }
  // Writes `name` into the set (atomically, into the staging directory);
  // safe to call from several threads at once.
  void write(const std::filesystem::path& name, std::string_view content);
  // A file of the set whose content is made over the run (pairs.csv, a
  // placement at a time): appended to as it is made, then committed into
  // the staging directory and listed in written() by finish_file().
  std::unique_ptr<AtomicFile> open_file(const std::filesystem::path& name);
  void finish_file(AtomicFile& file, const std::filesystem::path& name);
  // Replaces the set at path() by the staged one in one step (renameat2's
  // exchange where the file system has it, else two renames), then removes
  // the old set. Throws RuntimeFailure when the swap fails; the old set is
  // then left in place.
  void publish();

  // Each file written so far and when its write ended, in that order: what
  // bench_engine reads to find the file that sets how long the outputs take.
  struct Written {
    std::string name;
    std::chrono::steady_clock::time_point at;
  };
  std::vector<Written> written() const;

 private:
  void remove_staging() noexcept;
  // The checks of an existing directory before anything is made beside it.
  void check_existing(std::optional<OutputKind> kind, bool replace) const;
  void make_staging();
  // Before the swap: the replaced set's directory mode and owner onto the staged one.
  void keep_mode_and_owner() noexcept;

  std::filesystem::path dir_;
  OutputDirectory parent_;  // the chain up to the parent; undone unless published
  std::filesystem::path staging_;
  std::filesystem::path lock_path_;
  int lock_fd_ = -1;
  // For the signal handler: the lock (when this run made the file), and the
  // staging directory with each staged file.
  std::vector<std::unique_ptr<RegisteredTempFile>> created_registrations_;  // parents made for the set
  std::unique_ptr<RegisteredTempFile> lock_registration_;
  std::vector<std::unique_ptr<RegisteredTempFile>> staging_registrations_;
  std::vector<Written> written_;  // under registrations_mutex_
  mutable std::mutex registrations_mutex_;  // write() runs on the threads of PendingFiles
  bool published_ = false;
};

// True when `dir` holds a set cumap wrote: a meta.json whose "tool" is
// "cumap" (read through report/read/checked_file.hpp). Such a directory may
// be replaced by a new set of its kind; any other non-empty directory is
// refused.
bool is_cumap_output_set(const std::filesystem::path& dir);

}  // namespace cumap
