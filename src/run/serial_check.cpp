#include "serial_check.hpp"

#include <cmath>
#include <utility>
#include <vector>

#include "core/homes.hpp"
#include "core/stats.hpp"

namespace cumap {
namespace {

// Values of `x` and `y` for the pairs both have, in one order.
std::pair<std::vector<double>, std::vector<double>> paired(const std::map<PairKey, double>& x,
                                                           const std::map<PairKey, double>& y) {
  std::vector<double> a, b;
  for (const auto& [key, v] : x)
    if (const auto it = y.find(key); it != y.end()) {
      a.push_back(v);
      b.push_back(it->second);
    }
  return {a, b};
}

}  // namespace

// Per-pair median round trip of every measurement that completed, in device
// cycles where the backend counts them (a run's ns depend on the SM clock it
// measured, which moves between launches), else in ns.
std::map<PairKey, double> pair_medians(const Measurements& measured) {
  std::map<PairKey, double> out;
  for (const PairMeasurement& p : measured.pairs)
    if (!p.timed_out)
      out[{p.a, p.b, p.flags.device, p.flags.first, p.flags.second}] = summarize(p.rtt_cycles.empty() ? p.rtt_ns : p.rtt_cycles).median;
  return out;
}

// The sample runs before and after the concurrent passes, so that the two
// serial runs bracket the map in time: their disagreement is the noise a
// value has over the minutes a map takes, the floor the concurrent values are
// judged against.
SelfCheck judge_serial_check(const SerialSample& sample, const std::map<PairKey, double>& after,
                             const Measurements& measured, int pairs_per_round, double limit) {
  SelfCheck check;
  check.pairs_per_round = pairs_per_round;
  std::map<PairKey, double> serial;  // the mean of the two serial runs
  for (const auto& [key, v] : sample.before)
    if (const auto it = after.find(key); it != after.end()) serial[key] = (v + it->second) / 2;
  const auto [conc, ser] = paired(pair_medians(measured), serial);
  check.agreement = agreement(conc, ser);
  const auto [x, y] = paired(after, sample.before);
  check.serial_repeat = agreement(x, y);
  std::vector<double> shift;
  for (std::size_t i = 0; i < conc.size(); ++i) shift.push_back((conc[i] - ser[i]) / ser[i]);
  check.bias = summarize(shift).median;
  // The median shift of n noisy pairs is itself uncertain, by about 1.25
  // sigma / sqrt(n) (sigma from the shifts' median absolute deviation): a
  // shift counts only beyond two of those.
  std::vector<double> deviation;
  for (double v : shift) deviation.push_back(std::abs(v - check.bias));
  const double sigma = 1.4826 * summarize(deviation).median;
  check.bias_uncertainty = shift.empty() ? 0.0 : 1.2533 * sigma / std::sqrt(static_cast<double>(shift.size()));
  check.passed = check.agreement.n > 0 && std::abs(check.bias) <= limit + 2 * check.bias_uncertainty &&
                 check.agreement.median_rel_diff <= check.serial_repeat.median_rel_diff + limit;
  return check;
}

}  // namespace cumap
