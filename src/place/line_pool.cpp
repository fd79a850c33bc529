// cumap::place::LinePool: a program's lines by home class, handed out to
// the SMs that will share them, cheapest class first by the home table.
#include <algorithm>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "place/chip_state.hpp"

namespace cumap::place {

LinePool::LinePool(std::shared_ptr<State> state) : state_(std::move(state)) {}

int LinePool::gpu() const { return state_->chip->gpu; }
const std::vector<Line>& LinePool::lines() const { return state_->lines; }
bool LinePool::homes_matter() const { return state_->chip->homes.classes.class_count > 1; }

std::vector<Line> LinePool::of_class(int home_class) const {
  std::vector<Line> out;
  for (const Line& l : state_->lines)
    if (l.home_class == home_class) out.push_back(l);
  return out;
}

// Home class c is the class side c is near (classes and sides are labelled
// so); with one class every line is near every side.
std::vector<Line> LinePool::near(int side) const { return homes_matter() ? of_class(side) : state_->lines; }

std::size_t LinePool::left(int home_class) const {
  std::size_t n = 0;
  for (std::size_t l = 0; l < state_->lines.size(); ++l)
    n += state_->lines[l].home_class == home_class && !state_->handed_out[l];
  return n;
}

Line LinePool::take(int home_class) {
  for (std::size_t l = 0; l < state_->lines.size(); ++l)
    if (state_->lines[l].home_class == home_class && !state_->handed_out[l]) {
      state_->handed_out[l] = true;
      return state_->lines[l];
    }
  throw Error(fmt::format("every line of home class {} of this pool ({} lines) is handed out already", home_class,
                          state_->lines.size()));
}

double LinePool::predicted_ns(const std::vector<int>& sms, int home_class) const {
  const Chip chip(state_->chip);
  double sum = 0;
  for (int sm : sms) sum += chip.latency_ns(sm, home_class);
  return sum;
}

Line LinePool::for_units(const std::vector<int>& sms) {
  if (sms.empty()) throw Error("for_units: name the SMs that will share the line");
  int best = -1;
  double best_ns = std::numeric_limits<double>::infinity();
  for (int c = 0; c < state_->chip->homes.classes.class_count; ++c) {
    if (left(c) == 0) continue;
    const double ns = predicted_ns(sms, c);
    if (ns < best_ns) best = c, best_ns = ns;
  }
  if (best < 0) throw Error(fmt::format("every line of this pool ({} lines) is handed out already", state_->lines.size()));
  return take(best);
}

Line LinePool::for_pair(int a, int b) {
  return for_units({a, b});
}

}  // namespace cumap::place
