// Which flag lines the pairs of a plan use. A pair's latency depends on where
// its line lives, so lines are dealt out from a home class's pool so that
// pairs of one round never share a line (they run at the same time), one
// pair meets different lines in different passes, and every line of the pool
// carries about the same share of the pairs (no line's slice dominates a map).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "plan/planner.hpp"
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

// Lines of the first flag's class that one pair of a round takes:
// split-line puts its second flag on another line of that class.
std::size_t class_lines_per_pair(Placement placement) { return placement == Placement::SplitLine ? 2 : 1; }

}  // namespace

std::map<int, int> pairs_each_device_holds(const DeviceLinePools& pools, Placement placement) {
  std::map<int, int> most;
  for (const auto& [device, p] : pools) {
    const std::size_t n = p.by_class.size();
    if (n == 0) continue;
    std::size_t fewest = std::numeric_limits<std::size_t>::max();
    for (std::size_t c = 0; c < n; ++c) {
      fewest = std::min(fewest, p.by_class[c].size() / class_lines_per_pair(placement));
      if (placement == Placement::CrossHome) fewest = std::min(fewest, p.by_class[(c + 1) % n].size());
    }
    most[device] = static_cast<int>(std::min<std::size_t>(fewest, std::numeric_limits<int>::max()));
  }
  return most;
}

std::vector<Round> assign_lines(const PairRounds& rounds, const DeviceLinePools& pools, Placement placement, int cls,
                                int pass, int passes, int tag, int default_device) {
  if (passes < 1 || pass < 0 || pass >= passes)
    throw std::invalid_argument(fmt::format("assign_lines: pass {} of {} does not exist", pass, passes));
  if (cls < 0) throw std::invalid_argument(fmt::format("assign_lines: class {} does not exist", cls));

  // One dealer per device that holds flags (and one for its other class,
  // cross-home): devices deal their own lines, each in its own arena.
  struct DeviceDealers {
    const std::vector<std::uint64_t>* pool;
    const std::vector<std::uint64_t>* other_pool;
    int other_cls;
    LineDealer first;
    LineDealer other;
  };
  std::map<int, DeviceDealers> dealers;
  const auto dealers_of = [&](int device) -> DeviceDealers* {
    if (auto it = dealers.find(device); it != dealers.end()) return &it->second;
    const auto p = pools.find(device);
    if (p == pools.end())
      throw std::invalid_argument(fmt::format("assign_lines: no flag lines for device {}", device));
    const auto& by_class = p->second.by_class;
    const int class_count = static_cast<int>(by_class.size());
    if (cls >= class_count) return nullptr;  // this device has no class `cls`
    if (placement == Placement::CrossHome && class_count < 2)
      throw UsageError("the cross-home placement needs at least two home classes; this device has one");
    const int other_cls = (cls + 1) % class_count;
    const auto& pool = by_class[static_cast<std::size_t>(cls)];
    const auto& other_pool = by_class[static_cast<std::size_t>(other_cls)];
    return &dealers
                .emplace(device, DeviceDealers{&pool, &other_pool, other_cls, LineDealer(pool, pass, passes),
                                               LineDealer(other_pool, pass, passes)})
                .first->second;
  };

  std::vector<Round> out;
  out.reserve(rounds.size());
  for (const auto& pairs : rounds) {
    // The round's pairs by the device that holds their flags: slot s of a
    // device's pairs takes line s of its dealer.
    std::map<int, std::vector<const UnitPair*>> on_device;
    for (const UnitPair& p : pairs) on_device[p.flags_on].push_back(&p);
    Round round;
    round.pairs.reserve(pairs.size());
    for (const auto& [device, device_pairs] : on_device) {
      DeviceDealers* d = dealers_of(device);
      if (d == nullptr) continue;
      const std::size_t k = device_pairs.size();
      // Split-line: the second lines follow the first ones in the pool, so
      // the round's 2k lines are all different.
      require_lines(class_lines_per_pair(placement) * k, d->pool->size(), cls, k, placement);
      if (placement == Placement::CrossHome) require_lines(k, d->other_pool->size(), d->other_cls, k, placement);
      for (std::size_t s = 0; s < k; ++s) {
        PlannedPair planned;
        planned.a = unit_ref(device_pairs[s]->a, default_device);
        planned.b = unit_ref(device_pairs[s]->b, default_device);
        planned.tag = tag;
        planned.flags.device = device;
        planned.flags.first = d->first.line(s);
        switch (placement) {
          case Placement::SameLine: planned.flags.second = planned.flags.first + protocol::kSameLineGapBytes; break;
          case Placement::SplitLine: planned.flags.second = d->first.line(k + s); break;
          case Placement::CrossHome: planned.flags.second = d->other.line(s); break;
        }
        round.pairs.push_back(planned);
      }
      d->first.advance(class_lines_per_pair(placement) * k);
      if (placement == Placement::CrossHome) d->other.advance(k);
    }
    out.push_back(std::move(round));
  }
  return out;
}

std::vector<Round> rounds_without_lines(const PairRounds& rounds, int tag, int device) {
  std::vector<Round> out(rounds.size());
  for (std::size_t r = 0; r < rounds.size(); ++r)
    for (const UnitPair& p : rounds[r])
      out[r].pairs.push_back({UnitRef{device, p.a}, UnitRef{device, p.b}, FlagSite{0, protocol::kSameLineGapBytes, device}, tag});
  return out;
}

}  // namespace cumap
