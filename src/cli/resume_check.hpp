#pragma once
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cumap/options.hpp"

namespace cumap {

// --resume DIR: a run may only continue an earlier one that measured the same
// way. Compares the options recorded in the earlier run's meta.json
// (`previous_meta["options"]`, written by to_json(Options)) with `current` and
// returns the first difference as a one-line message naming the option and
// both values, e.g. "iters: the earlier run used 100, this one 50"; nullopt
// when they agree. out_dir, quiet and resume_dir are not compared: they do
// not change what is measured. A meta.json without an "options" object is a
// difference too.
std::optional<std::string> first_option_difference(const nlohmann::json& previous_meta, const Options& current);

// The options the user typed with --resume DIR, by flag, with the key
// meta.json records each under ("--iters" -> "iters"). Those that differ from
// the earlier run's: the first as a one-line message naming the flag and both
// values, e.g. "--iters: the earlier run used 100, this one 50"; nullopt
// when they agree. Options not typed are taken from the earlier run.
std::optional<std::string> first_typed_difference(const nlohmann::json& previous_meta, const Options& current,
                                                  const std::map<std::string, std::string>& typed);

}  // namespace cumap
