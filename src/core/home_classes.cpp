// Home classes of flag lines, found in the unit x line latency table.
//
// Model: latency(u, l) = mu + a(u) + b(l) + d(u, class(l)) + noise, where a
// is how fast the unit is overall, b the line's own slice offset and d what
// the class is about: which units are near its lines. Removing each line's
// mean over units removes mu + b(l); a(u) is common to every line and cancels
// in differences. What remains, the line's centred profile across units,
// differs between lines only by class (and noise), so lines are clustered by
// the distance between their centred profiles.
//
// How many classes: the clustering tree (average linkage) is cut into
// k = 1, 2, ... clusters and each cut is judged by the separation of its
// clusters — the smallest distance between two cluster profiles over the
// largest spread of lines around their own cluster's profile. The cut with
// the most clusters whose separation reaches ClassifyOptions::min_separation
// wins; with nothing that separates (a CPU) that is k = 1. Cutting a real
// class in two gives two profiles as close as the noise, so the count stops
// at the real classes. Clusters of a handful of lines (a glitch in one probe
// makes its line look unlike every other) are not classes: they are left out
// of the judgement and their lines go to the nearest class afterwards. The
// tree needs the distance of every two lines: past kMaxClusteredLines lines
// it is built from a sample of them, and the rest go to the nearest class
// the same way.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "average_linkage.hpp"
#include "pairwise_distances.hpp"
#include "cumap/backend.hpp"
#include "core/homes.hpp"
#include "core/stats.hpp"

namespace cumap {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The most lines the clustering tree is built from: its distance matrix is
// the square of them (4096 lines: 128 MiB of doubles; 65536 would be 32 GiB).
// Up to this many every line is clustered, as always; past it a sample of
// this many (still 32 lines of every class of 1/128 of the lines, the
// smallest class counted, see smallest_class).
constexpr std::size_t kMaxClusteredLines = 4096;

// Lines x units, each line minus its mean over its finite units.
struct Profiles {
  std::size_t lines = 0;
  std::size_t units = 0;
  std::vector<double> values;  // row-major, NaN where the table has no value
  const double* line(std::size_t l) const { return values.data() + l * units; }
};

// Moves the finite values of a profile by their mean, so that it is the
// shape across units that is compared, not the level; others become NaN.
void centre(double* values, std::size_t n) {
  double sum = 0.0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (std::isfinite(values[i])) {
      sum += values[i];
      ++count;
    }
  const double mean = count > 0 ? sum / static_cast<double>(count) : 0.0;
  for (std::size_t i = 0; i < n; ++i) values[i] = std::isfinite(values[i]) ? values[i] - mean : kNaN;
}

Profiles centred_profiles(const LineLatencyTable& table) {
  Profiles p;
  p.lines = table.lines.size();
  p.units = table.units.size();
  p.values.resize(p.lines * p.units);
  for (std::size_t l = 0; l < p.lines; ++l) {
    for (std::size_t u = 0; u < p.units; ++u) p.values[l * p.units + u] = table.ns_at(u, l);
    centre(p.values.data() + l * p.units, p.units);
  }
  return p;
}

// RMS difference of two profiles over the units where both are finite; NaN
// when they share none.
double rms_distance(const double* x, const double* y, std::size_t units) {
  double sum = 0.0;
  std::size_t count = 0;
  for (std::size_t u = 0; u < units; ++u)
    if (std::isfinite(x[u]) && std::isfinite(y[u])) {
      sum += (x[u] - y[u]) * (x[u] - y[u]);
      ++count;
    }
  return count > 0 ? std::sqrt(sum / static_cast<double>(count)) : kNaN;
}

// Index of the profile nearest to `line` (RMS over units both have); 0 when
// none can be compared.
std::size_t nearest_profile(const double* line, const std::vector<const double*>& profiles, std::size_t units) {
  std::size_t nearest = 0;
  double best = kInf;
  for (std::size_t g = 0; g < profiles.size(); ++g) {
    const double d = rms_distance(line, profiles[g], units);
    if (std::isfinite(d) && d < best) {
      best = d;
      nearest = g;
    }
  }
  return nearest;
}

std::vector<double> line_distances(const Profiles& p) {
  // lines^2/2 x units: the expensive part (70 M terms for 1024 lines of 132 SMs).
  return pairwise_distances(p.lines, [&](std::size_t i, std::size_t j) { return rms_distance(p.line(i), p.line(j), p.units); });
}

// The lines the clustering tree is built from: all of them up to
// kMaxClusteredLines, else that many chosen evenly at random (a fixed
// seed: the same table gives the same classes). Not every k-th line: a
// stride can alias with the address bits that choose a line's slice.
// Ascending.
std::vector<std::size_t> clustered_lines(std::size_t lines) {
  std::vector<std::size_t> all(lines);
  std::iota(all.begin(), all.end(), std::size_t{0});
  if (lines <= kMaxClusteredLines) return all;
  std::uint64_t state = 0x9E3779B97F4A7C15ull;  // splitmix64: the same numbers on every platform
  const auto next = [&] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  // A partial Fisher-Yates shuffle: the first kMaxClusteredLines are the sample.
  for (std::size_t i = 0; i < kMaxClusteredLines; ++i) std::swap(all[i], all[i + next() % (lines - i)]);
  all.resize(kMaxClusteredLines);
  std::sort(all.begin(), all.end());
  return all;
}

// The rows `rows` of `p`, in that order.
Profiles some_profiles(const Profiles& p, const std::vector<std::size_t>& rows) {
  Profiles some;
  some.lines = rows.size();
  some.units = p.units;
  some.values.reserve(rows.size() * p.units);
  for (std::size_t r : rows) some.values.insert(some.values.end(), p.line(r), p.line(r) + p.units);
  return some;
}

// A group of lines with its mean centred profile and the RMS distance of its
// lines' cells from that profile.
struct Group {
  std::vector<int> lines;
  std::vector<double> profile;
  double spread = 0.0;
};

Group make_group(const Profiles& p, std::vector<int> lines) {
  Group g;
  g.lines = std::move(lines);
  g.profile.assign(p.units, kNaN);
  std::vector<double> sum(p.units, 0.0);
  std::vector<std::size_t> count(p.units, 0);
  for (int l : g.lines) {
    const double* x = p.line(static_cast<std::size_t>(l));
    for (std::size_t u = 0; u < p.units; ++u)
      if (std::isfinite(x[u])) {
        sum[u] += x[u];
        ++count[u];
      }
  }
  for (std::size_t u = 0; u < p.units; ++u)
    if (count[u] > 0) g.profile[u] = sum[u] / static_cast<double>(count[u]);
  double squares = 0.0;
  std::size_t cells = 0;
  for (int l : g.lines) {
    const double* x = p.line(static_cast<std::size_t>(l));
    for (std::size_t u = 0; u < p.units; ++u)
      if (std::isfinite(x[u]) && std::isfinite(g.profile[u])) {
        squares += (x[u] - g.profile[u]) * (x[u] - g.profile[u]);
        ++cells;
      }
  }
  g.spread = cells > 0 ? std::sqrt(squares / static_cast<double>(cells)) : 0.0;
  return g;
}

// Smallest distance between two group profiles; inf for one group.
double closest_profiles(const std::vector<Group>& groups, std::size_t units) {
  double closest = kInf;
  for (std::size_t i = 0; i < groups.size(); ++i)
    for (std::size_t j = i + 1; j < groups.size(); ++j) {
      const double d = rms_distance(groups[i].profile.data(), groups[j].profile.data(), units);
      closest = std::min(closest, std::isfinite(d) ? d : 0.0);
    }
  return closest;
}

// Smallest distance between two group profiles over the largest spread: inf
// for one group, 0 when two profiles coincide.
double separation(const std::vector<Group>& groups, std::size_t units) {
  if (groups.size() < 2) return kInf;
  double closest = kInf, widest = 0.0;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    widest = std::max(widest, groups[i].spread);
    for (std::size_t j = i + 1; j < groups.size(); ++j) {
      const double d = rms_distance(groups[i].profile.data(), groups[j].profile.data(), units);
      closest = std::min(closest, std::isfinite(d) ? d : 0.0);
    }
  }
  if (closest == 0.0) return 0.0;
  return widest > 0.0 ? closest / widest : kInf;
}

// Clusters smaller than this are a few odd lines, not a class. 1/128 of the
// lines: an H100 class has hundreds of the 512 probed lines; an MI300X's
// eight have dozens.
std::size_t smallest_class(std::size_t lines) {
  return lines < 8 ? 1 : std::max<std::size_t>(2, lines / 128);
}

// Cuts the tree into more and more clusters (always splitting the cluster
// that merged last) and returns the line groups of the best cut: the most
// classes whose separation reaches `min_separation`, at most `max_classes`.
// Lines of clusters too small to be classes come back in `strays`.
std::vector<Group> best_cut(const Dendrogram& tree, const Profiles& p, const ClassifyOptions& options,
                            double min_gap_ns, std::vector<int>& strays) {
  const std::size_t min_lines = smallest_class(p.lines);
  // Heights along a path may dip by rounding; splitting in order of the
  // highest height below keeps parents before children.
  std::vector<double> height(tree.nodes.size(), 0.0);
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    const Dendrogram::Node& n = tree.nodes[i];
    height[i] = n.left < 0 ? 0.0
                           : std::max({n.height, height[static_cast<std::size_t>(n.left)],
                                       height[static_cast<std::size_t>(n.right)]});
  }
  // Room for small clusters peeled off on the way to max_classes real ones.
  const std::size_t max_cuts = std::min<std::size_t>(p.lines, 4 * static_cast<std::size_t>(options.max_classes) + 32);

  std::vector<int> cut{tree.root()};
  std::vector<Group> best;
  std::vector<int> best_strays;
  for (std::size_t k = 1; k <= max_cuts; ++k) {
    std::vector<Group> groups;
    std::vector<int> small;
    for (int node : cut) {
      std::vector<int> lines = leaves_below(tree, node);
      if (lines.size() >= min_lines) groups.push_back(make_group(p, std::move(lines)));
      else small.insert(small.end(), lines.begin(), lines.end());
    }
    if (groups.size() > static_cast<std::size_t>(options.max_classes)) break;
    if (groups.size() > best.size() && separation(groups, p.units) >= options.min_separation &&
        closest_profiles(groups, p.units) >= min_gap_ns) {
      best = std::move(groups);
      best_strays = std::move(small);
    }
    // Split the cluster that merged last.
    auto widest = std::max_element(cut.begin(), cut.end(), [&](int x, int y) {
      return height[static_cast<std::size_t>(x)] < height[static_cast<std::size_t>(y)];
    });
    if (tree.is_leaf(*widest)) break;
    const Dendrogram::Node& n = tree.nodes[static_cast<std::size_t>(*widest)];
    *widest = n.left;
    cut.push_back(n.right);
  }
  strays = std::move(best_strays);
  return best;
}

// Each stray line joins the class whose profile is nearest to its own.
void place_strays(const Profiles& p, const std::vector<int>& strays, std::vector<Group>& groups) {
  std::vector<std::vector<int>> joining(groups.size());
  std::vector<const double*> profiles;
  for (const Group& g : groups) profiles.push_back(g.profile.data());
  for (int l : strays) joining[nearest_profile(p.line(static_cast<std::size_t>(l)), profiles, p.units)].push_back(l);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (joining[g].empty()) continue;
    std::vector<int> lines = groups[g].lines;
    lines.insert(lines.end(), joining[g].begin(), joining[g].end());
    std::sort(lines.begin(), lines.end());
    groups[g] = make_group(p, std::move(lines));
  }
}

// Per unit, the class whose lines it reaches fastest; -1 for a unit with no
// finite latency to any class.
std::vector<int> nearest_class_of_units(const std::vector<std::vector<double>>& class_unit_ns, std::size_t units) {
  std::vector<int> side(units, -1);
  for (std::size_t u = 0; u < units; ++u) {
    double fastest = kInf;
    for (std::size_t c = 0; c < class_unit_ns.size(); ++c)
      if (const double v = class_unit_ns[c][u]; std::isfinite(v) && v < fastest) {
        fastest = v;
        side[u] = static_cast<int>(c);
      }
  }
  return side;
}

// Labels two runs of one chip agree on, wherever the flag arena landed (the
// lines are other lines in every allocation; the units are the same units):
// side 0 is the side that holds the lowest unit id, home class 0 the class
// that side is near; then classes by the lowest unit id near them. A class
// no unit is nearest to (possible with many classes) comes after those, by
// the unit relatively nearest to it, then by its lowest line offset. Sides
// are classes, so they follow. Before this, classes were ordered by size and
// then by their lowest line offset: two flag offsets swapped home0 and home1.
void relabel_canonically(HomeClasses& homes, const LineLatencyTable& table) {
  const std::size_t n_units = table.units.size();
  const std::size_t n_classes = homes.class_unit_ns.size();
  const std::vector<int> side = nearest_class_of_units(homes.class_unit_ns, n_units);
  struct Key {
    bool nobody_near = true;
    int unit = std::numeric_limits<int>::max();
    std::uint64_t lowest_line = std::numeric_limits<std::uint64_t>::max();
    auto operator<=>(const Key&) const = default;
  };
  std::vector<Key> key(n_classes);
  for (std::size_t u = 0; u < n_units; ++u)
    if (side[u] >= 0) {
      Key& k = key[static_cast<std::size_t>(side[u])];
      k.nobody_near = false;
      k.unit = std::min(k.unit, unit_id(table.units[u]));
    }
  for (std::size_t c = 0; c < n_classes; ++c) {
    for (std::size_t l = 0; l < homes.line_class.size(); ++l)
      if (homes.line_class[l] == static_cast<int>(c)) key[c].lowest_line = std::min(key[c].lowest_line, table.lines[l]);
    if (!key[c].nobody_near) continue;
    // The unit for which this class is least far compared with its other classes.
    double best = kInf;
    for (std::size_t u = 0; u < n_units; ++u) {
      double sum = 0.0;
      std::size_t count = 0;
      for (std::size_t k = 0; k < n_classes; ++k)
        if (std::isfinite(homes.class_unit_ns[k][u])) sum += homes.class_unit_ns[k][u], ++count;
      const double relative = homes.class_unit_ns[c][u] - sum / static_cast<double>(std::max<std::size_t>(count, 1));
      const int id = unit_id(table.units[u]);
      if (std::isfinite(relative) && (relative < best || (relative == best && id < key[c].unit))) {
        best = relative;
        key[c].unit = id;
      }
    }
  }
  std::vector<std::size_t> order(n_classes);  // order[new label] = label as found
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return key[x] < key[y]; });
  std::vector<int> label(n_classes);
  for (std::size_t c = 0; c < n_classes; ++c) label[order[c]] = static_cast<int>(c);

  std::vector<std::vector<double>> by_label(n_classes);
  for (std::size_t c = 0; c < n_classes; ++c) by_label[c] = std::move(homes.class_unit_ns[order[c]]);
  homes.class_unit_ns = std::move(by_label);
  for (int& c : homes.line_class) c = label[static_cast<std::size_t>(c)];
  homes.unit_side.assign(n_units, 0);
  for (std::size_t u = 0; u < n_units; ++u)
    if (side[u] >= 0) homes.unit_side[u] = label[static_cast<std::size_t>(side[u])];
}

}  // namespace

std::vector<std::uint64_t> HomeClasses::lines_of(int c, const std::vector<std::uint64_t>& lines) const {
  if (lines.size() != line_class.size())
    throw std::invalid_argument("HomeClasses::lines_of: the lines are not the classified table's");
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (line_class[i] == c) out.push_back(lines[i]);
  return out;
}

HomeClasses classify_lines(const LineLatencyTable& table, const ClassifyOptions& options) {
  const std::size_t n_units = table.units.size(), n_lines = table.lines.size();
  if (table.ns.size() != n_units * n_lines)
    throw std::invalid_argument(fmt::format("classify_lines: {} values for {} units x {} lines", table.ns.size(),
                                            n_units, n_lines));
  if (options.max_classes < 1) throw std::invalid_argument("classify_lines: max_classes must be at least 1");

  const Profiles profiles = centred_profiles(table);
  std::vector<Group> groups;
  if (n_lines > 0) {
    // The tree's memory and time grow with the square of its lines: past
    // kMaxClusteredLines it is built from a sample of them, and the lines
    // left out join the nearest class afterwards, as strays do.
    const std::vector<std::size_t> sampled = clustered_lines(n_lines);
    const Profiles sample = sampled.size() == n_lines ? Profiles{} : some_profiles(profiles, sampled);
    const Profiles& clustered = sampled.size() == n_lines ? profiles : sample;
    const Dendrogram tree = average_linkage(line_distances(clustered), clustered.lines);
    std::vector<int> strays;
    // Separation is relative to the spread inside groups, which a coarse
    // timer can make zero (a CPU's steady_clock over a short chain: every
    // line reads 6.25 or 6.28 ns). A class must also differ by a visible
    // fraction of the latency itself.
    std::vector<double> all(table.ns.begin(), table.ns.end());
    const double min_gap_ns = options.min_relative_gap * summarize(all).median;
    groups = best_cut(tree, clustered, options, min_gap_ns, strays);
    if (groups.empty()) {  // every cluster small (very few lines): one class
      std::vector<int> all(n_lines);
      std::iota(all.begin(), all.end(), 0);
      groups.push_back(make_group(profiles, std::move(all)));
    } else {
      if (sampled.size() != n_lines) {
        // Back from sample rows to the table's lines; every line not in the
        // sample is placed like a stray.
        const auto line_of = [&](int row) { return static_cast<int>(sampled[static_cast<std::size_t>(row)]); };
        for (Group& g : groups) {
          std::vector<int> lines;
          for (int row : g.lines) lines.push_back(line_of(row));
          g = make_group(profiles, std::move(lines));
        }
        for (int& row : strays) row = line_of(row);
        std::vector<bool> in_sample(n_lines, false);
        for (std::size_t l : sampled) in_sample[l] = true;
        for (std::size_t l = 0; l < n_lines; ++l)
          if (!in_sample[l]) strays.push_back(static_cast<int>(l));
      }
      place_strays(profiles, strays, groups);
    }
  }
  HomeClasses homes;
  homes.class_count = std::max<int>(1, static_cast<int>(groups.size()));
  homes.line_class.assign(n_lines, 0);
  for (std::size_t c = 0; c < groups.size(); ++c)
    for (int l : groups[c].lines) homes.line_class[static_cast<std::size_t>(l)] = static_cast<int>(c);
  homes.separation = separation(groups, profiles.units);

  homes.class_unit_ns.assign(static_cast<std::size_t>(homes.class_count), std::vector<double>(n_units, kNaN));
  for (std::size_t c = 0; c < groups.size(); ++c) {
    std::vector<double> values;
    for (std::size_t u = 0; u < n_units; ++u) {
      values.clear();
      for (int l : groups[c].lines) values.push_back(table.ns_at(u, static_cast<std::size_t>(l)));
      homes.class_unit_ns[c][u] = summarize(values).median;  // NaN cells are skipped
    }
  }
  relabel_canonically(homes, table);
  return homes;
}

std::vector<int> nearest_classes(const HomeClasses& classes, const LineLatencyTable& table) {
  const Profiles lines = centred_profiles(table);
  // The classes' profiles (median latency per unit), centred like the lines'.
  std::vector<std::vector<double>> centred = classes.class_unit_ns;
  for (std::vector<double>& profile : centred) centre(profile.data(), profile.size());
  std::vector<const double*> profiles;
  for (const std::vector<double>& profile : centred) profiles.push_back(profile.data());
  std::vector<int> nearest(lines.lines);
  for (std::size_t l = 0; l < lines.lines; ++l)
    nearest[l] = static_cast<int>(nearest_profile(lines.line(l), profiles, lines.units));
  return nearest;
}

}  // namespace cumap
