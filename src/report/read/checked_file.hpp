#pragma once
// The one way cumap reads a file it is given: its own files (meta.json,
// homes.json, pairs.csv, matrix and sync CSVs, --order files, a saved run
// of the placement library) and the font. Every reader of them opens the
// file here, so that none of them can hang on a named pipe, read /dev/zero
// until memory runs out, or crash on JSON nested a hundred thousand deep:
//
//  - only a regular file is read: a directory, named pipe, socket or device
//    is refused without reading (opened without blocking, checked on the
//    open descriptor), and so is a file of /proc or /sys, whose size says
//    nothing of what reading it returns;
//  - no more than a limit of bytes per kind of file (ReadKind), far above
//    the largest cumap writes, is read, whatever the file's size says;
//  - JSON is parsed with its nesting bounded (kMaxJsonDepth) before
//    anything copies or dumps it (both recurse).
//
// A refusal is a FileReadError (a UsageError: exit 2) naming the file and
// why; callers put what the file was for in front ("summary: ...").
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cumap/error.hpp"

namespace cumap {

// A kind of file and the most bytes cumap reads of one.
struct ReadKind {
  std::string_view name;  // for messages: "meta.json", "pairs.csv", "font"
  std::uint64_t max_bytes;
};

inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
// meta.json, homes.json, topology JSON: a few MB for eight GPUs of 132 SMs.
inline constexpr ReadKind kMetaJsonRead{"meta.json", 512 * kMiB};
inline constexpr ReadKind kHomesJsonRead{"homes.json", 512 * kMiB};
inline constexpr ReadKind kOrderFileRead{"order file", 512 * kMiB};
// pairs.csv: a row of about 200 bytes per pair, class and line; a map of
// eight GPUs of 132 SMs with 24 lines in two classes and three placements
// writes about 16 GB. Read whole for --resume.
inline constexpr ReadKind kPairsCsvRead{"pairs.csv", 64 * 1024 * kMiB};
// A matrix CSV: about 10 bytes a cell, 11 MB for 1056 units.
inline constexpr ReadKind kMatrixCsvRead{"matrix CSV", 4 * 1024 * kMiB};
inline constexpr ReadKind kSyncCsvRead{"barrier or contention CSV", 512 * kMiB};
// TrueType and OpenType fonts, CJK collections included, are tens of MB.
inline constexpr ReadKind kFontRead{"font", 512 * kMiB};

// cumap's JSON nests a handful of levels; a hand-written --order file not
// many more. Deeper is refused before the parse builds it.
inline constexpr int kMaxJsonDepth = 64;

// "<path>: <reason>": the reason alone for callers that name the file in
// their own words (the font).
class FileReadError : public UsageError {
 public:
  FileReadError(const std::filesystem::path& path, std::string reason);
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// The whole file. FileReadError when it is missing, not a regular file,
// in /proc or /sys, larger than `kind.max_bytes`, or cannot be read.
std::string read_checked_file(const std::filesystem::path& path, const ReadKind& kind);

// The same, handed over in chunks as it is read (a matrix CSV is never held
// whole, only the matrix it describes). Exceptions from `take` pass through.
void read_checked_file_in_chunks(const std::filesystem::path& path, const ReadKind& kind,
                                 const std::function<void(std::string_view)>& take);

// The file parsed as JSON, its nesting bounded. FileReadError as above, and
// when it is not JSON or nests deeper than kMaxJsonDepth.
nlohmann::json read_checked_json(const std::filesystem::path& path, const ReadKind& kind);

// `text` parsed as JSON with its nesting bounded: the reason it is refused
// (not JSON, too deep) as a UsageError without a file name.
nlohmann::json parse_checked_json(std::string_view text);

}  // namespace cumap
