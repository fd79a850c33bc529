#include <string>

#include <gtest/gtest.h>

#include "core/printable.hpp"

namespace cumap {
namespace {

TEST(PrintableExcerpt, PlainTextPassesThrough) {
  EXPECT_EQ(printable_excerpt("GPC 3"), "GPC 3");
  EXPECT_EQ(printable_excerpt("Grüße, 東京"), "Grüße, 東京");
  EXPECT_EQ(printable_excerpt(""), "");
}

TEST(PrintableExcerpt, ControlCharactersBecomeEscapes) {
  EXPECT_EQ(printable_excerpt("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(printable_excerpt(std::string("x\0y", 3)), "x\\x00y");
  EXPECT_EQ(printable_excerpt("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(printable_excerpt("a\u2028b\u0085c"), "a\\u2028b\\u0085c");
}

TEST(PrintableExcerpt, InvalidUtf8BytesBecomeEscapes) {
  EXPECT_EQ(printable_excerpt("a\xff" "b"), "a\\xffb");
  EXPECT_EQ(printable_excerpt("\xc3"), "\\xc3");          // truncated sequence
  EXPECT_EQ(printable_excerpt("\xc0\xaf"), "\\xc0\\xaf");  // overlong '/'
}

TEST(PrintableExcerpt, LongTextIsCutAtTheLimitInCodePoints) {
  const std::string long_text(120000, 'x');
  const std::string excerpt = printable_excerpt(long_text);
  EXPECT_EQ(excerpt, std::string(40, 'x') + "…");
  EXPECT_EQ(printable_excerpt(std::string(40, 'x')), std::string(40, 'x'));  // exactly the limit: no ellipsis
  // Multi-byte characters are never split.
  EXPECT_EQ(printable_excerpt("ééé", 2), "éé…");
}

TEST(PrintableExcerpt, ResultIsAlwaysOneLine) {
  std::string every_byte;
  for (int c = 0; c < 256; ++c) every_byte += static_cast<char>(c);
  const std::string excerpt = printable_excerpt(every_byte, 1000);
  for (unsigned char c : excerpt) EXPECT_FALSE(c < 0x20 || c == 0x7f) << static_cast<int>(c);
}

}  // namespace
}  // namespace cumap
