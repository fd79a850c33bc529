#pragma once
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <string_view>

namespace cumap {

// Writes to a temporary file beside `path`, then renames it over `path`, so
// that readers never see half a file. Throws RuntimeFailure on I/O errors,
// and UsageError, writing nothing, when something other than a regular file
// is at `path` (why_not_replaceable): a rename would replace it.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// Why the file `existing` (lstat's answer for an output path) must not be
// replaced by an output file; "" for a regular file. A rename over a
// symbolic link replaces the link (its target untouched), over a named pipe,
// socket or device (/dev/null, run as root) the node itself. A regular file
// with other hard links is replaced: its other names keep the old content,
// as when any editor saves by renaming.
std::string why_not_replaceable(const struct stat& existing);

}  // namespace cumap
