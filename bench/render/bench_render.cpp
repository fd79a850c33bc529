// Times render_heatmap on synthetic maps shaped like real ones: 132 units in
// 8 groups (an H100's SMs in GPCs), two placements side by side; then 1024
// units once. With --demo FILE it also writes the 132-unit picture there.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "render/render.hpp"
#include "report/render_file.hpp"
#include "core/topology.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Units in `groups` blocks; latency low inside a block, higher across, rising
// with block distance, plus noise: the structure a GPU map shows.
cumap::ValueMatrix structured_map(int units, int groups, double base_ns, unsigned seed,
                                  const std::vector<int>& order) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, 6.0);
  cumap::ValueMatrix m = cumap::ValueMatrix::filled(order, 0.0);
  const auto group_of = [&](int unit) { return unit * groups / units; };
  for (int r = 0; r < units; ++r)
    for (int c = 0; c < units; ++c) {
      const int gr = group_of(order[r]), gc = group_of(order[c]);
      const double v = gr == gc ? base_ns : base_ns + 120.0 + 25.0 * std::abs(gr - gc);
      m.at(r, c) = r == c ? std::nan("") : v + noise(rng);
    }
  m.at(3, 40) = std::nan("");  // one timed-out pair, drawn gray
  return m;
}

cumap::Topology block_topology(int units, int groups) {
  cumap::Topology topo;
  topo.source = "clusters";
  for (int g = 0; g < groups; ++g) {
    cumap::UnitGroup group{fmt::format("GPC{}", g), {}};
    for (int u = 0; u < units; ++u)
      if (u * groups / units == g) group.units.push_back(u);
    topo.groups.push_back(group);
  }
  return topo;
}

struct Case {
  std::vector<cumap::HeatmapPanel> panels;
  cumap::HeatmapStyle style;
};

Case make_case(int units, int groups, int panels) {
  Case c;
  c.style.groups = block_topology(units, groups);
  std::vector<int> all(units);
  for (int u = 0; u < units; ++u) all[u] = u;
  const std::vector<int> order = cumap::topology_order(*c.style.groups, all);
  const char* names[] = {"same-line", "separate-lines"};
  for (int p = 0; p < panels; ++p)
    c.panels.push_back({names[p % 2], structured_map(units, groups, 380.0 + 60.0 * p, 11u + p, order)});
  c.style.title = fmt::format("Synthetic GPU ({} units) - one-way latency, median 505 ns, range 362-718 ns", units);
  return c;
}

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string demo = argc == 3 && std::string(argv[1]) == "--demo" ? argv[2] : "";
  try {
    const Case small = make_case(132, 8, 2);
    std::vector<double> render_ms, png_ms;
    cumap::Image image;
    for (int i = 0; i < 20; ++i) {
      const auto start = Clock::now();
      image = cumap::render_heatmap(small.panels, small.style);
      render_ms.push_back(milliseconds_since(start));
    }
    const auto png_path = std::filesystem::temp_directory_path() / "cumap_bench_render.png";
    for (int i = 0; i < 5; ++i) {
      const auto start = Clock::now();
      cumap::write_png(png_path, image);
      png_ms.push_back(milliseconds_since(start));
    }
    std::filesystem::remove(png_path);
    fmt::print("132 units, 2 panels ({}x{} px): render_heatmap median {:.1f} ms over 20, write_png median {:.1f} ms\n",
               image.width, image.height, median(render_ms), median(png_ms));
    if (!demo.empty()) {
      cumap::write_png(demo, image);
      fmt::print("wrote {}\n", demo);
    }

    const Case large = make_case(1024, 16, 1);
    const auto start = Clock::now();
    const cumap::Image big = cumap::render_heatmap(large.panels, large.style);
    fmt::print("1024 units, 1 panel ({}x{} px): render_heatmap {:.1f} ms (once)\n", big.width, big.height,
               milliseconds_since(start));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_render: %s\n", e.what());
    return 1;
  }
  return 0;
}
