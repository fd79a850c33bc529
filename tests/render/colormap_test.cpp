#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "render/render.hpp"
#include "render/colormap_tables.hpp"

namespace cumap {
namespace {

TEST(Colormap, ends_match_matplotlib) {
  // matplotlib's first and last entries times 255.
  EXPECT_EQ(colormap("viridis", 0.0), (Rgb{68, 1, 84}));
  EXPECT_EQ(colormap("viridis", 1.0), (Rgb{253, 231, 37}));
  EXPECT_EQ(colormap("magma", 0.0), (Rgb{0, 0, 4}));
  EXPECT_EQ(colormap("magma", 1.0), (Rgb{252, 253, 191}));
  EXPECT_EQ(colormap("cividis", 0.0), (Rgb{0, 34, 78}));
  EXPECT_EQ(colormap("cividis", 1.0), (Rgb{254, 232, 56}));
}

TEST(Colormap, clamps_outside_unit_interval) {
  EXPECT_EQ(colormap("magma", -3.0), colormap("magma", 0.0));
  EXPECT_EQ(colormap("magma", 7.0), colormap("magma", 1.0));
}

TEST(Colormap, unknown_name_is_usage_error) {
  EXPECT_THROW(colormap("jet", 0.5), UsageError);
}

TEST(Colormap, missing_gray_is_in_no_colormap) {
  for (const auto* table : {&render::kViridis, &render::kMagma, &render::kCividis})
    for (const Rgb& color : *table) EXPECT_NE(color, kMissingGray);
}

TEST(Colormap, lightness_rises_along_the_map) {
  // All three maps are built to get lighter from 0 to 1.
  for (const auto* table : {&render::kViridis, &render::kMagma, &render::kCividis}) {
    const auto luma = [](Rgb c) { return 0.299 * c.r + 0.587 * c.g + 0.114 * c.b; };
    EXPECT_LT(luma(table->front()) + 100, luma(table->back()));
    EXPECT_LT(luma((*table)[64]), luma((*table)[192]));
  }
}

}  // namespace
}  // namespace cumap
