#include <sys/resource.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "sanitizer_build.hpp"

#include "cumap/error.hpp"
#include "publish/atomic_file.hpp"
#include "report/matrix_csv.hpp"
#include "report/read/matrix_csv.hpp"
#include "temp_dir.hpp"

namespace cumap {
namespace {

ValueMatrix sample_matrix() {
  ValueMatrix m = ValueMatrix::filled({0, 4, 9}, kNaN);
  m.at(0, 1) = m.at(1, 0) = 123.456;
  m.at(0, 2) = m.at(2, 0) = 1.5;
  m.at(1, 2) = 700.0;  // (2,1) stays NaN, as a timed-out ordered cell would
  return m;
}

void expect_same(const ValueMatrix& a, const ValueMatrix& b) {
  ASSERT_EQ(a.units, b.units);
  ASSERT_EQ(a.values.size(), b.values.size());
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    if (std::isnan(a.values[i])) EXPECT_TRUE(std::isnan(b.values[i])) << i;
    else EXPECT_DOUBLE_EQ(a.values[i], b.values[i]) << i;
  }
}

TEST(MatrixCsv, WritesTheDocumentedForm) {
  EXPECT_EQ(matrix_csv(sample_matrix()),
            "unit,0,4,9\n"
            "0,,123.456,1.500\n"
            "4,123.456,,700.000\n"
            "9,1.500,,\n");
}

TEST(MatrixCsv, RoundTripsIncludingNaN) { expect_same(parse_matrix_csv(matrix_csv(sample_matrix())), sample_matrix()); }

TEST(MatrixCsv, AcceptsSpreadsheetOutput) {
  const std::string text =
      "\xEF\xBB\xBF\"unit\",\"0\",\"4\",\"9\"\r\n"
      "0,,\"123.456\",1.5E+00\r\n"
      "\"4\",1.23456E+02, ,7e2\r\n"
      "9,1.50,\"\",\r\n"
      "\r\n"
      ",,,\r\n";
  expect_same(parse_matrix_csv(text), sample_matrix());
}

TEST(MatrixCsv, AcceptsMissingFinalNewlineAndNanText) {
  const ValueMatrix m = parse_matrix_csv("unit,1,2\n1,nan,12.5\n2,1.25E+01,");
  EXPECT_DOUBLE_EQ(m.at(0, 1), 12.5);
  EXPECT_DOUBLE_EQ(m.at(1, 0), 12.5);
  EXPECT_TRUE(std::isnan(m.at(0, 0)));
}

// The message of the UsageError parse_matrix_csv throws, or "" if none.
std::string usage_error(const std::string& text) {
  try {
    parse_matrix_csv(text);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(MatrixCsv, RejectsMalformedInputWithLineNumbers) {
  EXPECT_NE(usage_error("").find("line 1"), std::string::npos);
  EXPECT_NE(usage_error("\r\n\n").find("empty"), std::string::npos);
  EXPECT_NE(usage_error("unit,0,1\n0,,abc\n1,2,\n").find("line 2"), std::string::npos);  // non-numeric
  EXPECT_NE(usage_error("unit,0,1\r\n0,,1\r\n1,2\r\n").find("line 3"), std::string::npos);  // ragged
  EXPECT_NE(usage_error("unit,0,x\n0,,1\nx,2,\n").find("line 1"), std::string::npos);  // id not an integer
  EXPECT_NE(usage_error("unit,0,1.5\n0,,1\n1.5,2,\n").find("line 1"), std::string::npos);
  EXPECT_NE(usage_error("unit,0,1\n0,,1\n").find("square"), std::string::npos);  // too few rows
  EXPECT_NE(usage_error("unit,0,1\n0,,1\n1,1,\n2,1,1\n").find("line 4"), std::string::npos);  // too many
  EXPECT_NE(usage_error("unit,0,1\n1,,1\n0,1,\n").find("line 2"), std::string::npos);  // order differs
  EXPECT_NE(usage_error("unit,3,3\n3,,1\n3,1,\n").find("twice"), std::string::npos);  // duplicate id
  EXPECT_NE(usage_error("unit,0,1\n0,,inf\n1,1,\n").find("line 2"), std::string::npos);
  EXPECT_NE(usage_error("unit\n").find("no units"), std::string::npos);
}

TEST(MatrixCsv, ReadsFilesAndReportsMissingOnes) {
  const test::TempDir tmp;
  const auto& dir = tmp.path();
  const auto path = dir / "m.csv";
  write_file_atomic(path, matrix_csv(sample_matrix()));
  expect_same(read_matrix_csv(path), sample_matrix());
  try {
    read_matrix_csv(dir / "absent.csv");
    ADD_FAILURE() << "no error for a missing file";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("absent.csv"), std::string::npos);
  }
  EXPECT_THROW(read_matrix_csv(dir), UsageError);
}

TEST(MatrixCsv, ErrorsQuoteFieldsOnOneShortLine) {
  const std::string hostile = "12\n\r\0" + std::string(5000, 'x');
  const std::string message =
      usage_error("unit,0,1\n0,,\"" + hostile + "\"\n1,1,\n");
  EXPECT_NE(message.find("line 2"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_EQ(message.find('\r'), std::string::npos);
  EXPECT_LT(message.size(), 120u) << message;
  EXPECT_NE(message.find("…"), std::string::npos);
  // Header ids are quoted the same way.
  const std::string header = usage_error("unit,0,\"a\nb\"\n0,,1\n1,1,\n");
  EXPECT_NE(header.find("a\\nb"), std::string::npos) << header;
}

TEST(MatrixCsv, BlankRowsInsideTheDataAreErrorsButTrailingOnesAreNot) {
  EXPECT_NE(usage_error("unit,0,1\n,,\n0,,1\n").find("line 2"), std::string::npos);
  EXPECT_NE(usage_error("unit,0,1\n,,\n0,,1\n1,1,\n").find("square"), std::string::npos);
  EXPECT_NE(usage_error(",,\nunit,0,1\n0,,1\n1,1,\n").find("line 1"), std::string::npos);
  EXPECT_EQ(parse_matrix_csv("unit,0,1\n0,,1\n1,1,\n,,\n , ,\n\n").size(), 2u);
}

// Peak resident memory of this process so far, in bytes.
long peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss * 1024L;
}

// A big matrix costs about its 8 bytes a cell, not a string per cell (the
// reader once kept every field as a std::string: ~60 bytes a cell).
TEST(MatrixCsv, BigMatrixCostsAboutEightBytesACell) {
  constexpr int n = 2000;
  const test::TempDir tmp;
  const auto path = tmp.path() / "big.csv";
  {
    // Row by row, so that writing it raises the peak by little.
    std::ofstream out(path);
    out << "unit";
    for (int c = 0; c < n; ++c) out << ',' << c;
    out << '\n';
    for (int r = 0; r < n; ++r) {
      out << r;
      for (int c = 0; c < n; ++c) out << ',' << 100 + (r * n + c) % 997 << ".125";
      out << '\n';
    }
  }
  const long before = peak_rss_bytes();
  const ValueMatrix read = read_matrix_csv(path);
  const long growth = peak_rss_bytes() - before;
  ASSERT_EQ(read.size(), static_cast<std::size_t>(n));
  EXPECT_DOUBLE_EQ(read.at(1, 2), 100.125 + (n + 2) % 997);
  if (CUMAP_ASAN_BUILD) GTEST_SKIP() << "resident memory is not comparable under AddressSanitizer";
  // 4 M cells x 8 bytes = 32 MiB, the file is 44 MiB; a string per cell
  // would be well over 150 MiB. Generous: 64 MiB.
  EXPECT_LT(growth, 64L << 20) << "reading grew the peak by " << (growth >> 20) << " MiB";
}

TEST(MatrixCsv, AcrossGpusEveryIdIsGpuDotSmAndReadsBack) {
  ValueMatrix m = ValueMatrix::filled({0, 1, 100000}, kNaN);
  m.at(0, 2) = m.at(2, 0) = 900.5;
  const std::string csv = matrix_csv(m);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "unit,g0.0,g0.1,g1.0");
  const ValueMatrix back = parse_matrix_csv(csv);
  EXPECT_EQ(back.units, m.units);
  EXPECT_DOUBLE_EQ(back.at(2, 0), 900.5);
}

}  // namespace
}  // namespace cumap
