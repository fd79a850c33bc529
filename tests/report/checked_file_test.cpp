// The one checked reader of the files cumap reads (report/read/checked_file.hpp)
// and the checked numbers of its JSON (json_fields.hpp): a named pipe,
// /dev/zero, a directory or a file of /proc is refused at once, never read;
// what is read is bounded; JSON nested too deep is refused before anything
// copies it; a number out of range is none, never converted.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/read/checked_file.hpp"
#include "report/read/json_fields.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The reason the reader gives for `path`, or "" when it reads it.
std::string refusal(const fs::path& path, const ReadKind& kind = kMetaJsonRead) {
  try {
    read_checked_file(path, kind);
    return "";
  } catch (const FileReadError& e) {
    EXPECT_NE(std::string(e.what()).find(path.filename().string()), std::string::npos) << e.what();
    return e.reason();
  }
}

TEST(CheckedFile, ReadsARegularFileWholeOrInChunks) {
  const test::TempDir dir;
  const std::string text(3 << 20, 'x');  // three chunks and more
  const fs::path file = dir.file("big.csv", text + "end");
  EXPECT_EQ(read_checked_file(file, kMatrixCsvRead), text + "end");
  std::string gathered;
  int chunks = 0;
  read_checked_file_in_chunks(file, kMatrixCsvRead, [&](std::string_view chunk) {
    gathered.append(chunk);
    ++chunks;
  });
  EXPECT_EQ(gathered, text + "end");
  EXPECT_GT(chunks, 1);
}

// A named pipe with no writer blocked the reader forever; /dev/zero was
// read until memory ran out. Both are refused at once, and the pipe is
// left as it was.
TEST(CheckedFile, RefusesWhatIsNotARegularFileAtOnce) {
  const test::TempDir dir;
  const fs::path fifo = dir / "meta.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = Clock::now();
  EXPECT_NE(refusal(fifo).find("named pipe"), std::string::npos);
  EXPECT_NE(refusal("/dev/zero").find("character device"), std::string::npos);
  EXPECT_NE(refusal("/dev/null").find("character device"), std::string::npos);
  EXPECT_NE(refusal(dir.path()).find("directory"), std::string::npos);
  EXPECT_NE(refusal("/proc/self/status").find("/proc"), std::string::npos);
  EXPECT_NE(refusal("/proc/self/mem").find("/proc"), std::string::npos);
  EXPECT_EQ(refusal(dir / "missing.json"), "no such file");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(1));
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
  // Through a symbolic link: what it points to is checked.
  fs::create_symlink("/dev/zero", dir / "homes.json");
  EXPECT_NE(refusal(dir / "homes.json").find("character device"), std::string::npos);
}

TEST(CheckedFile, ReadsNoMoreThanItsKindsLimit) {
  const test::TempDir dir;
  const ReadKind tiny{"tiny file", 10};
  EXPECT_EQ(read_checked_file(dir.file("ten", std::string(10, 'a')), tiny), std::string(10, 'a'));
  EXPECT_NE(refusal(dir.file("eleven", std::string(11, 'a')), tiny).find("larger than"), std::string::npos);
  // A sparse file of a terabyte is refused by its size, without reading it.
  const fs::path sparse = dir / "sparse";
  dir.file("sparse", "");
  fs::resize_file(sparse, std::uintmax_t{1} << 40);
  const auto start = Clock::now();
  EXPECT_NE(refusal(sparse).find("larger than 512 MiB"), std::string::npos);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(1));
}

// 100 000 levels (200 KB) overflowed the stack when copied or dumped; the
// parse now stops at the first level too deep, in well under a second.
TEST(CheckedJson, RefusesNestingDeeperThanItsBound) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const auto start = Clock::now();
  try {
    parse_checked_json(deep);
    ADD_FAILURE() << "parsed";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("nests deeper"), std::string::npos) << e.what();
  }
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(1));
  // At the bound it reads; one past it, not.
  const auto nested = [](int levels) { return std::string(levels, '[') + std::string(levels, ']'); };
  EXPECT_NO_THROW(parse_checked_json(nested(kMaxJsonDepth + 1)));
  EXPECT_THROW(parse_checked_json(nested(kMaxJsonDepth + 2)), UsageError);
  EXPECT_THROW(parse_checked_json("{\"a\": "), UsageError);
  const test::TempDir dir;
  try {
    read_checked_json(dir.file("deep.json", "{\"groups\": " + deep + "}"), kOrderFileRead);
    ADD_FAILURE() << "parsed";
  } catch (const FileReadError& e) {
    EXPECT_NE(e.reason().find("nests deeper"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_checked_json(dir.file("ok.json", R"({"tool": "cumap"})"), kMetaJsonRead).at("tool"), "cumap");
}

// A number past a double's range stops nlohmann's parser with another kind of
// exception than a syntax error (found by fuzz_topology_json): bad input all
// the same, not a crash.
TEST(CheckedJson, ANumberPastADoublesRangeIsBadInput) {
  for (const char* text : {"[1e400]", R"({"groups": 10841e48717})", "-1e99999"}) {
    try {
      parse_checked_json(text);
      ADD_FAILURE() << text << " parsed";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("number too large"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(parse_checked_json("[1e300]"));
}

// get<int> of 1e300 is undefined behaviour; the getters answer none instead.
TEST(JsonFields, AWholeNumberOutOfItsTypesRangeIsNone) {
  using json_fields::exact;
  using Json = nlohmann::json;
  EXPECT_EQ(exact<int>(Json(7)), 7);
  EXPECT_EQ(exact<int>(Json(-7)), -7);
  EXPECT_EQ(exact<int>(Json(3.0)), 3);
  EXPECT_EQ(exact<int>(Json(1e300)), std::nullopt);
  EXPECT_EQ(exact<int>(Json(-1e300)), std::nullopt);
  EXPECT_EQ(exact<int>(Json(2.5)), std::nullopt);
  EXPECT_EQ(exact<int>(Json(2147483648LL)), std::nullopt);
  EXPECT_EQ(exact<int>(Json(-2147483648LL)), std::numeric_limits<int>::min());
  EXPECT_EQ(exact<int>(Json(2147483648.0)), std::nullopt);
  EXPECT_EQ(exact<int>(Json(-2147483648.0)), std::numeric_limits<int>::min());
  EXPECT_EQ(exact<int>(Json(std::numeric_limits<std::uint64_t>::max())), std::nullopt);
  EXPECT_EQ(exact<std::size_t>(Json(-1)), std::nullopt);
  EXPECT_EQ(exact<std::size_t>(Json(18446744073709551615.0)), std::nullopt);
  EXPECT_EQ(exact<std::size_t>(Json(std::numeric_limits<std::uint64_t>::max())),
            std::numeric_limits<std::size_t>::max());
  EXPECT_EQ(exact<long long>(Json(9223372036854775808.0)), std::nullopt);
  EXPECT_EQ(exact<int>(Json("7")), std::nullopt);
  EXPECT_EQ(exact<int>(Json()), std::nullopt);
  EXPECT_EQ(json_fields::whole<int>(Json{{"k", 1e300}}, "k", -1), -1);
  EXPECT_EQ(json_fields::whole<int>(Json{{"k", 12}}, "k", -1), 12);
}

}  // namespace
}  // namespace cumap
