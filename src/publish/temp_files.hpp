#pragma once
#include <cstddef>
#include <filesystem>

namespace cumap {

// Temporary files and directories that exist right now (write_file_atomic's
// temporary files, an output set's staging directory and its files), so
// that a second interrupt can delete them from its signal handler before the
// process exits. The registry is a fixed array of slots: registering copies
// the path into a slot, the handler only reads slots and calls unlink(2),
// both async-signal-safe.
class RegisteredTempFile {
 public:
  // Registers `path` (made absolute, so that it means the same file from the
  // handler). When every slot is taken the file is simply not registered:
  // an interrupt could then leave it behind, nothing worse.
  explicit RegisteredTempFile(const std::filesystem::path& path);
  ~RegisteredTempFile();  // unregisters; does not touch the file
  RegisteredTempFile(const RegisteredTempFile&) = delete;
  RegisteredTempFile& operator=(const RegisteredTempFile&) = delete;
  bool registered() const { return slot_ >= 0; }

 private:
  int slot_ = -1;
};

// Unlinks every registered file, then removes every registered directory
// that is empty by then. Async-signal-safe: for signal handlers.
void remove_registered_temp_files() noexcept;

// How many files are registered now (for tests and diagnostics; not for handlers).
std::size_t registered_temp_file_count();

}  // namespace cumap
