#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "render/render.hpp"

// FreeType's handles, kept out of this header so that only font.cpp sees FreeType.
struct FT_LibraryRec_;
struct FT_FaceRec_;

namespace cumap::render {

// Which way text runs: left to right, or rotated a quarter turn counter-clockwise
// so that it reads bottom to top (axis labels on the left, column labels).
enum class TextDirection { Right, Up };

// Size of a piece of text: advance along the baseline, and the ink above and
// below the baseline (so that digits centre on a row, not the font's full box).
struct TextExtent {
  int width = 0;
  int ascent = 0;
  int descent = 0;
  int height() const { return ascent + descent; }
};

// The font path: $CUMAP_FONT if set (tests, non-Debian systems), else the
// path CMake compiled in (DejaVu Sans from fonts-dejavu-core).
std::filesystem::path default_font_path();

// One TrueType face, anti-aliased, with a cache of rendered glyphs per pixel
// size (a heatmap draws the same dozen digits hundreds of times).
class Font {
 public:
  // Throws UsageError "font <path>: <why> (... install fonts-dejavu-core)" if it
  // cannot be loaded: not found, not readable (the system's reason), not a
  // regular file (a directory, a named pipe, a device), or not a font
  // FreeType can read. The file is read through the checked reader
  // (report/read/checked_file.hpp) and kept for the face's life.
  explicit Font(const std::filesystem::path& path);
  ~Font();
  Font(const Font&) = delete;
  Font& operator=(const Font&) = delete;

  TextExtent measure(std::string_view utf8, int pixel_size);
  // Draws with the pen starting at (x, baseline_y); for Up the baseline is the
  // vertical line through x and the text grows towards smaller y.
  void draw(Image& image, std::string_view utf8, int pixel_size, int x, int baseline_y, Rgb color,
            TextDirection direction = TextDirection::Right);

 private:
  struct Glyph {
    int left = 0;     // bitmap offset from the pen, right
    int top = 0;      // bitmap offset from the baseline, up
    int width = 0;
    int rows = 0;
    int advance = 0;  // whole pixels
    std::vector<std::uint8_t> coverage;
  };
  const Glyph& glyph(char32_t code, int pixel_size);

  std::string data_;  // the font file: FreeType reads the face from it
  FT_LibraryRec_* library_ = nullptr;
  FT_FaceRec_* face_ = nullptr;
  int current_size_ = 0;
  std::unordered_map<std::uint64_t, Glyph> cache_;
};

}  // namespace cumap::render
