#pragma once
// The files of one run as one set: written into a staging directory beside
// the output directory and swapped in whole, so that a reader (or a second
// run) never sees new matrices beside an old meta.json, and files of an
// earlier set never survive beside a new one.
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "publish/output_directory.hpp"
#include "publish/temp_files.hpp"

namespace cumap {

//   OutputSet out(options.out_dir);   // UsageError (exit 2) before any measuring
//   out.write("matrix.csv", text);    // into the staging directory
//   out.publish();                    // the whole set replaces the old one
//
// Without publish() (a failed run) the destructor removes the staging
// directory and whatever directories it created, and the previous set stays
// exactly as it was. While the object lives it holds a lock beside the
// directory: a second run into the same directory is refused. On a second
// interrupt the signal handler removes the staged files, the staging
// directory and the lock (they are registered, see temp_files.hpp).
class OutputSet {
 public:
  // Creates the missing parent directories and the staging directory, and
  // takes the lock. UsageError naming the directory when it cannot be
  // written, when it exists but holds files that are not a cumap output set
  // (cumap replaces its own sets only), or when another run holds the lock.
  explicit OutputSet(std::filesystem::path dir);
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  const std::filesystem::path& path() const { return dir_; }
  // Writes `name` into the set (atomically, into the staging directory);
  // safe to call from several threads at once.
  void write(const std::filesystem::path& name, std::string_view content);
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
// "cumap". Such a directory may be replaced by a new set; any other
// non-empty directory is refused.
bool is_cumap_output_set(const std::filesystem::path& dir);

}  // namespace cumap
