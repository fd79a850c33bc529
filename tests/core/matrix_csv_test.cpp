#include <cmath>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "cumap/outputs.hpp"
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

TEST(core_MatrixCsv, WritesTheDocumentedForm) {
  EXPECT_EQ(matrix_csv(sample_matrix()),
            "unit,0,4,9\n"
            "0,,123.456,1.500\n"
            "4,123.456,,700.000\n"
            "9,1.500,,\n");
}

TEST(core_MatrixCsv, RoundTripsIncludingNaN) { expect_same(parse_matrix_csv(matrix_csv(sample_matrix())), sample_matrix()); }

TEST(core_MatrixCsv, AcceptsSpreadsheetOutput) {
  const std::string text =
      "\xEF\xBB\xBF\"unit\",\"0\",\"4\",\"9\"\r\n"
      "0,,\"123.456\",1.5E+00\r\n"
      "\"4\",1.23456E+02, ,7e2\r\n"
      "9,1.50,\"\",\r\n"
      "\r\n"
      ",,,\r\n";
  expect_same(parse_matrix_csv(text), sample_matrix());
}

TEST(core_MatrixCsv, AcceptsMissingFinalNewlineAndNanText) {
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

TEST(core_MatrixCsv, RejectsMalformedInputWithLineNumbers) {
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

TEST(core_MatrixCsv, ReadsFilesAndReportsMissingOnes) {
  const TempDir tmp;
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

}  // namespace
}  // namespace cumap
