#pragma once
#include <array>

#include "render/render.hpp"

namespace cumap::render {

// 256 colors from low to high; see colormap_tables.cpp for the source.
using ColormapTable = std::array<Rgb, 256>;

extern const ColormapTable kViridis;
extern const ColormapTable kMagma;
extern const ColormapTable kCividis;

// The table behind a colormap name; throws UsageError for unknown names.
const ColormapTable& colormap_table(const std::string& name);

}  // namespace cumap::render
