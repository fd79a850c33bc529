#include "render/font.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include <ft2build.h>
#include FT_FREETYPE_H

#include <fmt/format.h>

#include "core/printable.hpp"
#include "cumap/error.hpp"
#include "render/canvas.hpp"
#include "report/read/checked_file.hpp"

namespace cumap::render {
namespace {

// The most characters of one piece of text drawn: a picture grows to hold
// its title, and a title of a megabyte (a device's name, a title in a
// meta.json given to `cumap render --order`) would ask for gigabytes of
// pixels. The longest cumap makes are under 200.
constexpr std::size_t kMaxTextChars = 400;

// Decodes UTF-8, replacing malformed bytes with '?': titles come from users
// and device names, and a stray byte should not abort a picture. Text
// longer than kMaxTextChars is cut there and ends in an ellipsis.
std::vector<char32_t> decode_utf8(std::string_view text) {
  std::vector<char32_t> out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (out.size() == kMaxTextChars) {
      out.back() = U'\u2026';
      break;
    }
    const auto lead = static_cast<unsigned char>(text[i]);
    const int extra = lead < 0x80 ? 0 : (lead >> 5) == 0x6 ? 1 : (lead >> 4) == 0xE ? 2 : (lead >> 3) == 0x1E ? 3 : -1;
    bool ok = extra >= 0 && i + extra < text.size();
    char32_t code = ok ? (extra == 0 ? lead : lead & (0x3F >> extra)) : 0;
    for (int k = 1; ok && k <= extra; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      ok = (next & 0xC0) == 0x80;
      code = (code << 6) | (next & 0x3F);
    }
    out.push_back(ok ? code : U'?');
    i += ok ? extra + 1 : 1;
  }
  return out;
}

}  // namespace

std::filesystem::path default_font_path() {
  if (const char* env = std::getenv("CUMAP_FONT"); env != nullptr && *env != '\0') return env;
  return CUMAP_FONT_PATH;
}

Font::Font(const std::filesystem::path& path) {
  const auto fail = [&](const std::string& why) {
    if (face_ != nullptr) FT_Done_Face(face_);
    if (library_ != nullptr) FT_Done_FreeType(library_);
    throw UsageError(fmt::format("font {}: {} (set CUMAP_FONT to a TrueType or OpenType file, or install the Debian "
                                 "package fonts-dejavu-core)",
                                 printable_excerpt(path.string(), 200), why));
  };
  // Read through the one checked reader, then handed to FreeType from
  // memory: a named pipe or /dev/zero in the font's place is refused (it
  // would block, or be read until memory runs out), and the file system
  // says why a path cannot be read, where FreeType says only that it could not.
  try {
    data_ = read_checked_file(path, kFontRead);
  } catch (const FileReadError& e) {
    fail(e.reason() == "no such file" ? "not found" : e.reason());
  }
  if (FT_Init_FreeType(&library_) != 0) fail("FreeType could not start");
  if (const FT_Error error = FT_New_Memory_Face(library_, reinterpret_cast<const FT_Byte*>(data_.data()),
                                               static_cast<FT_Long>(data_.size()), 0, &face_);
      error != 0) {
    face_ = nullptr;
    // From memory, a file too short for any font reads past its end
    // (Invalid_Stream_Operation) before FreeType can say it knows no such format.
    const bool not_a_font = error == FT_Err_Unknown_File_Format || error == FT_Err_Invalid_File_Format ||
                            error == FT_Err_Invalid_Stream_Operation;
    fail(not_a_font ? "not a font FreeType can read" : fmt::format("FreeType cannot read it (error {})", error));
  }
}

Font::~Font() {
  FT_Done_Face(face_);
  FT_Done_FreeType(library_);
}

const Font::Glyph& Font::glyph(char32_t code, int pixel_size) {
  const std::uint64_t key = (static_cast<std::uint64_t>(pixel_size) << 32) | code;
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  if (current_size_ != pixel_size) {
    FT_Set_Pixel_Sizes(face_, 0, static_cast<FT_UInt>(pixel_size));
    current_size_ = pixel_size;
  }
  Glyph g;
  // Light hinting snaps only vertically: crisp baselines, true letter widths.
  if (FT_Load_Char(face_, code, FT_LOAD_RENDER | FT_LOAD_TARGET_LIGHT) == 0) {
    const FT_GlyphSlot slot = face_->glyph;
    const FT_Bitmap& bitmap = slot->bitmap;
    g.left = slot->bitmap_left;
    g.top = slot->bitmap_top;
    g.width = static_cast<int>(bitmap.width);
    g.rows = static_cast<int>(bitmap.rows);
    g.advance = static_cast<int>((slot->advance.x + 32) >> 6);
    g.coverage.resize(static_cast<std::size_t>(g.width) * g.rows);
    for (int y = 0; y < g.rows; ++y)
      for (int x = 0; x < g.width; ++x) g.coverage[y * g.width + x] = bitmap.buffer[y * bitmap.pitch + x];
  }
  return cache_.emplace(key, std::move(g)).first->second;
}

TextExtent Font::measure(std::string_view utf8, int pixel_size) {
  TextExtent extent;
  for (char32_t code : decode_utf8(utf8)) {
    const Glyph& g = glyph(code, pixel_size);
    extent.width += g.advance;
    if (g.rows > 0) {
      extent.ascent = std::max(extent.ascent, g.top);
      extent.descent = std::max(extent.descent, g.rows - g.top);
    }
  }
  return extent;
}

void Font::draw(Image& image, std::string_view utf8, int pixel_size, int x, int baseline_y, Rgb color,
                TextDirection direction) {
  int pen = 0;  // distance along the baseline
  for (char32_t code : decode_utf8(utf8)) {
    const Glyph& g = glyph(code, pixel_size);
    for (int gy = 0; gy < g.rows; ++gy) {
      for (int gx = 0; gx < g.width; ++gx) {
        const int alpha = g.coverage[gy * g.width + gx];
        if (alpha == 0) continue;
        const int along = pen + g.left + gx;  // along the baseline
        const int below = gy - g.top;         // below the baseline
        if (direction == TextDirection::Right)
          blend_pixel(image, x + along, baseline_y + below, color, alpha);
        else  // a quarter turn counter-clockwise: along -> up, below -> right
          blend_pixel(image, x + below, baseline_y - along, color, alpha);
      }
    }
    pen += g.advance;
  }
}

}  // namespace cumap::render

namespace cumap {

void check_heatmap_font() { const render::Font font(render::default_font_path()); }

}  // namespace cumap
