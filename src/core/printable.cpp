// Quoting user input in one-line error messages.
#include "core/printable.hpp"

#include <fmt/format.h>

namespace cumap {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 if the bytes
// there are not one (overlong forms, surrogates and truncation included).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i, char32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  char32_t cp = 0;
  char32_t smallest = 0;
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2, cp = lead & 0x1F, smallest = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, cp = lead & 0x0F, smallest = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, cp = lead & 0x07, smallest = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < smallest || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  code_point = cp;
  return length;
}

// How a code point that terminals or logs could take as a line break or a
// control sequence is written instead; "" for one that prints as itself.
std::string escape_of(char32_t cp) {
  switch (cp) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: break;
  }
  if (cp < 0x20 || cp == 0x7F) return fmt::format("\\x{:02x}", static_cast<unsigned>(cp));
  // C1 controls (NEL among them) and the Unicode line and paragraph separators.
  if ((cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029)
    return fmt::format("\\u{:04x}", static_cast<unsigned>(cp));
  return "";
}

}  // namespace

std::string printable_excerpt(std::string_view text, std::size_t max_chars) {
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (chars == max_chars) {
      out += "…";
      break;
    }
    char32_t cp = 0;
    const std::size_t length = utf8_sequence_length(text, i, cp);
    if (length == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
      i += 1;
    } else {
      const std::string escape = escape_of(cp);
      if (escape.empty()) out.append(text.substr(i, length));
      else out += escape;
      i += length;
    }
    ++chars;
  }
  return out;
}

}  // namespace cumap
