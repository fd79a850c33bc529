#include <stdexcept>
#include <unordered_map>

#include "core/matrix.hpp"

namespace cumap {

ValueMatrix ValueMatrix::filled(std::vector<int> units, double v) {
  ValueMatrix m;
  m.values.assign(units.size() * units.size(), v);
  m.units = std::move(units);
  return m;
}

ValueMatrix ValueMatrix::reordered(const std::vector<int>& order) const {
  std::unordered_map<int, std::size_t> index;
  for (std::size_t i = 0; i < units.size(); ++i) index[units[i]] = i;
  if (order.size() != units.size()) throw std::invalid_argument("reordered: not a permutation of the units");
  std::vector<std::size_t> from(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    auto it = index.find(order[i]);
    if (it == index.end()) throw std::invalid_argument("reordered: unit not in matrix");
    from[i] = it->second;
  }
  ValueMatrix out = filled(order, 0.0);
  for (std::size_t r = 0; r < order.size(); ++r)
    for (std::size_t c = 0; c < order.size(); ++c) out.at(r, c) = at(from[r], from[c]);
  return out;
}

}  // namespace cumap
