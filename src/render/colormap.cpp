#include <algorithm>
#include <cmath>

#include "cumap/error.hpp"
#include "render/colormap_tables.hpp"

namespace cumap {

namespace render {

const ColormapTable& colormap_table(const std::string& name) {
  if (name == "viridis") return kViridis;
  if (name == "magma") return kMagma;
  if (name == "cividis") return kCividis;
  throw UsageError("unknown colormap '" + name + "' (choose viridis, magma or cividis)");
}

}  // namespace render

Rgb colormap(const std::string& name, double t) {
  const auto& table = render::colormap_table(name);
  if (std::isnan(t)) return kMissingGray;
  // Same binning as matplotlib: [0,1] split into 256 equal bins, 1.0 in the last.
  const double clamped = std::clamp(t, 0.0, 1.0);
  const auto index = std::min<std::size_t>(table.size() - 1, static_cast<std::size_t>(clamped * table.size()));
  return table[index];
}

}  // namespace cumap
