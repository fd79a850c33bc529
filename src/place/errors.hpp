#pragma once
// The placement library reports every refusal as cumap::place::Error: its
// users see the installed API's one exception, with cumap's own message.
#include "cumap/error.hpp"
#include "cumap/place.hpp"

namespace cumap::place {

template <typename F>
auto as_place_errors(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const UsageError& e) {
    throw Error(e.what());
  } catch (const RuntimeFailure& e) {
    throw Error(e.what());
  }
}

}  // namespace cumap::place
