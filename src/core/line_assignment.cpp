// Which flag lines the pairs of a plan use. A pair's latency depends on where
// its line lives, so lines are dealt out from a home class's pool so that
// pairs of one round never share a line (they run at the same time), one
// pair meets different lines in different passes, and every line of the pool
// carries about the same share of the pairs (no line's slice dominates a map).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "cumap/planner.hpp"
#include "cumap/protocol.hpp"

namespace cumap {
namespace {

// Deals consecutive lines of one pool, round after round. The cursor runs
// over the pool as rounds consume lines, so all lines get used about equally
// whatever the round sizes; passes start `pass_step` lines apart, so one
// slot sees a different line in every pass (as long as the pool has at least
// as many lines as there are passes).
struct LineDealer {
  const std::vector<std::uint64_t>& pool;
  std::size_t pass_start;
  std::size_t cursor = 0;

  LineDealer(const std::vector<std::uint64_t>& lines, int pass, int passes) : pool(lines) {
    const std::size_t m = lines.size();
    const std::size_t p = static_cast<std::size_t>(passes);
    const std::size_t pass_step = std::max<std::size_t>(1, m / p);
    pass_start = m == 0 ? 0 : (static_cast<std::size_t>(pass) * pass_step) % m;
  }
  std::uint64_t line(std::size_t slot) const { return pool[(pass_start + cursor + slot) % pool.size()]; }
  void advance(std::size_t used) { cursor = pool.empty() ? 0 : (cursor + used) % pool.size(); }
};

void require_lines(std::size_t needed, std::size_t have, int cls, std::size_t pairs, Placement placement) {
  if (needed <= have) return;
  throw UsageError(fmt::format(
      "a round of {} pairs needs {} lines of home class {} for the {} placement, but only {} were found; "
      "probe more lines or run fewer pairs at once",
      pairs, needed, cls, to_string(placement), have));
}

}  // namespace

std::vector<Round> assign_lines(const PairRounds& rounds, const LinePools& pools, Placement placement, int cls,
                                int pass, int passes, int tag, int device) {
  const int class_count = static_cast<int>(pools.by_class.size());
  if (cls < 0 || cls >= class_count)
    throw std::invalid_argument(fmt::format("assign_lines: class {} of {} does not exist", cls, class_count));
  if (passes < 1 || pass < 0 || pass >= passes)
    throw std::invalid_argument(fmt::format("assign_lines: pass {} of {} does not exist", pass, passes));
  if (placement == Placement::CrossHome && class_count < 2)
    throw UsageError("the cross-home placement needs at least two home classes; this device has one");

  const std::vector<std::uint64_t>& pool = pools.by_class[static_cast<std::size_t>(cls)];
  const int other_cls = (cls + 1) % class_count;
  const std::vector<std::uint64_t>& other_pool = pools.by_class[static_cast<std::size_t>(other_cls)];
  LineDealer first_lines(pool, pass, passes);
  LineDealer other_lines(other_pool, pass, passes);

  std::vector<Round> out;
  out.reserve(rounds.size());
  for (const auto& pairs : rounds) {
    const std::size_t k = pairs.size();
    Round round;
    round.pairs.reserve(k);
    switch (placement) {
      case Placement::SameLine: require_lines(k, pool.size(), cls, k, placement); break;
      // The second lines follow the first ones in the pool, so the round's
      // 2k lines are all different.
      case Placement::SplitLine: require_lines(2 * k, pool.size(), cls, k, placement); break;
      case Placement::CrossHome:
        require_lines(k, pool.size(), cls, k, placement);
        require_lines(k, other_pool.size(), other_cls, k, placement);
        break;
    }
    for (std::size_t s = 0; s < k; ++s) {
      PlannedPair planned;
      planned.a = UnitRef{device, pairs[s].a};
      planned.b = UnitRef{device, pairs[s].b};
      planned.tag = tag;
      planned.flags.first = first_lines.line(s);
      switch (placement) {
        case Placement::SameLine: planned.flags.second = planned.flags.first + protocol::kSameLineGapBytes; break;
        case Placement::SplitLine: planned.flags.second = first_lines.line(k + s); break;
        case Placement::CrossHome: planned.flags.second = other_lines.line(s); break;
      }
      round.pairs.push_back(planned);
    }
    first_lines.advance(placement == Placement::SplitLine ? 2 * k : k);
    if (placement == Placement::CrossHome) other_lines.advance(k);
    out.push_back(std::move(round));
  }
  return out;
}

std::vector<Round> rounds_without_lines(const PairRounds& rounds, int tag, int device) {
  std::vector<Round> out(rounds.size());
  for (std::size_t r = 0; r < rounds.size(); ++r)
    for (const UnitPair& p : rounds[r]) out[r].pairs.push_back({UnitRef{device, p.a}, UnitRef{device, p.b}, FlagSite{}, tag});
  return out;
}

}  // namespace cumap
