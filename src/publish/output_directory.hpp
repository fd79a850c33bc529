#pragma once
#include <filesystem>
#include <string_view>
#include <vector>

namespace cumap {

// The directory a run writes into, and the undo of everything the run made
// there. The constructor creates the directory chain (like mkdir -p) and
// remembers exactly which directories it created; files written through
// write() are remembered when they are new. Unless keep() is called, the
// destructor removes those files and then those directories, innermost
// first, and only while they are empty: nothing that existed before the run,
// and nothing anyone else put there meanwhile, is ever removed or replaced.
//
//   OutputDirectory out(options.out_dir);   // UsageError if unusable; then nothing is left behind
//   out.write("matrix.csv", text);          // atomic, see write_file_atomic
//   out.keep();                             // success: keep all of it
class OutputDirectory {
 public:
  // Throws UsageError (exit 2) naming the path when a component is a regular
  // file, a dangling symbolic link, the name is too long, or no file can be
  // created in the directory; everything created up to then is removed again.
  explicit OutputDirectory(std::filesystem::path dir);
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;

  const std::filesystem::path& path() const { return dir_; }
  // The directories this object created, outermost first (empty when `dir` existed).
  const std::vector<std::filesystem::path>& created_directories() const { return created_dirs_; }

  // Writes `name` (relative to path()) atomically; remembers it for removal
  // on failure if it did not exist before. Throws RuntimeFailure on I/O errors.
  void write(const std::filesystem::path& name, std::string_view content);

  // The run succeeded, or wrote outputs the user should get (an interrupted
  // run's partial map): the destructor leaves everything in place.
  void keep() { kept_ = true; }

 private:
  // `file` (inside path()) did not exist before this run and may be removed
  // if the run fails.
  void note_new_file(const std::filesystem::path& file);
  // Removes the new files and created directories (what the destructor does
  // without keep()). Never throws.
  void discard() noexcept;

  std::filesystem::path dir_;
  std::vector<std::filesystem::path> created_dirs_;
  std::vector<std::filesystem::path> new_files_;
  bool kept_ = false;
};

// Checks that `file` can be written as an output file before any work is
// done: a non-empty name, not too long, in an existing, writable directory,
// and nothing there that is not a regular file (write_file_atomic renames a
// new file over the path: a directory, a symbolic link, a named pipe, a
// socket or a device such as /dev/null would be replaced, not written to).
// Throws UsageError naming the path otherwise.
void check_output_file(const std::filesystem::path& file);

}  // namespace cumap
