#pragma once
// barrier.png and contention.png: latency against k (a barrier's ns per
// barrier, an operation's median), a panel per participant set, a line per
// implementation (operation) and counter home.
#include <string>
#include <vector>

#include "cumap/result.hpp"
#include "render/render.hpp"

namespace cumap {

// The plot's panels (one per participant set, in the order measured) and
// style; render_line_plot draws them.
std::vector<PlotPanel> sync_plot_panels(const SyncResult& result);
LinePlotStyle sync_plot_style(const SyncResult& result);

}  // namespace cumap
